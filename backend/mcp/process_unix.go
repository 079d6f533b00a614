//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// terminateGroup sends SIGTERM to the server's whole group (the sandbox helper at its top
// takes it as the signal to end the group); ESRCH (already gone) is the normal case after a
// clean exit.
func terminateGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
}
