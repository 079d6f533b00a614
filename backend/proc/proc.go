// Package proc ties the processes AgentDesk starts (shell commands, external ACP agents) to
// it: each leads a process group of its own, so one kill reaches everything it started, and on
// Linux it is sent ParentDeathSignal when the thread that started it dies — a `kill -9` of
// AgentDesk included. The sandbox helper (backend/sandbox) sits at the top of such a group
// and, on that signal, kills the whole group: a grandchild dies as surely as the child.
package proc

import "syscall"

// ParentDeathSignal is what a child gets when AgentDesk dies. Catchable on purpose: the
// supervising helper turns it into SIGKILL for its whole group, which a plain SIGKILL of the
// helper alone would leave running.
const ParentDeathSignal = syscall.SIGTERM
