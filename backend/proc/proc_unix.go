//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// Own makes cmd the leader of a new process group and, where the kernel can, has it signalled
// when AgentDesk dies. With session, the group is a new session without a controlling
// terminal: a command that would prompt on /dev/tty (ssh, sudo, git credentials) fails at once
// instead of stopping on SIGTTIN, or stealing the terminal from "agentdesk run". It adds to
// SysProcAttr: the sandbox may have set namespaces there.
func Own(cmd *exec.Cmd, session bool) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if session {
		cmd.SysProcAttr.Setsid = true
	} else {
		cmd.SysProcAttr.Setpgid = true
	}
	dieWithParent(cmd.SysProcAttr)
}

// Kill sends SIGKILL to cmd's whole group: children cannot trap it, so a stop is prompt. ESRCH
// (the group is already empty) is the normal case after a clean exit.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
