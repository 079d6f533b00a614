//go:build !unix

package proc

import "os/exec"

// Own has no portable counterpart here: Kill kills the process itself.
func Own(*exec.Cmd, bool) {}

// Kill kills the process. Without process groups its children may outlive it.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
