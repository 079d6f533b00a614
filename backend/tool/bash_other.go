//go:build !unix

package tool

import "os/exec"

// newProcessGroup has no portable counterpart here; killProcessGroup kills the shell itself.
func newProcessGroup(*exec.Cmd) {}

// askToStop has nothing gentler to do here: the grace passes and the shell is killed.
func askToStop(*exec.Cmd) {}

// killProcessGroup kills the shell. Without process groups its children may outlive it; they
// lose their output pipe when the call ends, since drain closes it after a grace.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func fallbackShell(command string) (string, []string) {
	return "cmd.exe", []string{"/C", command}
}
