//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// newProcessGroup makes the server lead a new session and process group, so one signal reaches
// everything it starts, and a server that would prompt on a terminal fails at once. It adds to
// SysProcAttr: the sandbox may have set namespaces there.
func newProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
}

// signalGroup sends SIGTERM, or SIGKILL, to the server's whole group; ESRCH (already gone) is
// the normal case after a clean exit.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
