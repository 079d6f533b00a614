//go:build unix

package tool

import (
	"os/exec"
	"syscall"
)

// newProcessGroup makes the shell the leader of a new process group, so one signal to the group
// reaches every process the command starts (unless one deliberately leaves it with setsid).
// Setsid is Setpgid plus a new session without a controlling terminal: a command that would
// prompt on /dev/tty (ssh, sudo, git credentials) fails at once instead of stopping on SIGTTIN
// until the timeout, or stealing the terminal from "agentdesk run" asking a decision.
// It adds to SysProcAttr: the sandbox may have set namespaces there.
func newProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
}

// killProcessGroup sends SIGKILL to the whole group: children cannot trap it, so cancel is
// prompt. ESRCH (the group is already empty) is the normal case after a clean exit.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

func fallbackShell(command string) (string, []string) {
	return "/bin/sh", []string{"-c", command}
}
