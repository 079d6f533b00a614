//go:build unix

package tool

import (
	"os/exec"
	"syscall"

	"agentdesk/backend/proc"
)

// newProcessGroup makes the shell (or the sandbox helper above it) the leader of a new session
// and process group, so one signal to the group reaches every process the command starts
// (unless one deliberately leaves it with setsid), and ties it to AgentDesk's life (proc.Own).
// Without a controlling terminal, a command that would prompt on /dev/tty fails at once.
func newProcessGroup(cmd *exec.Cmd) { proc.Own(cmd, true) }

// askToStop sends SIGTERM to the command's leader, the supervising helper, which ends
// everything it supervises, its reparented orphans included, and then its group.
func askToStop(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
}

// killProcessGroup sends SIGKILL to the whole group.
func killProcessGroup(cmd *exec.Cmd) { proc.Kill(cmd) }

func fallbackShell(command string) (string, []string) {
	return "/bin/sh", []string{"-c", command}
}
