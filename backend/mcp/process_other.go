//go:build !unix

package mcp

import "os/exec"

func newProcessGroup(*exec.Cmd) {}

// signalGroup ends the server itself where there are no process groups.
func signalGroup(cmd *exec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
