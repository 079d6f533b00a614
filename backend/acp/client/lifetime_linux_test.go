//go:build linux

package client

import (
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/proc/proctest"
	"agentdesk/backend/store"
)

// An external agent runs in its own process group, and stopping it (the pool's Close, as the
// app's close does) takes everything it started along: here a background child of its shell.
func TestAnExternalAgentIsStoppedWithEverythingItStarted(t *testing.T) {
	r := newRig(t)
	r.cmd = `sh -c 'sleep 30 & exec "$@"' sh ` + r.cmd
	if err := r.st.SetExternalAgents([]string{r.cmd}); err != nil {
		t.Fatal(err)
	}
	id := r.newSession()
	if turn := r.send(id, "hello"); turn.Status != store.TurnDone {
		t.Fatalf("turn %+v", turn)
	}
	r.pool.mu.Lock()
	agentPid := r.pool.slots[id].c.cmd.Process.Pid
	r.pool.mu.Unlock()
	tree := proctest.WaitForDescendant(t, agentPid, "sleep")
	for _, pid := range tree {
		if g := proctest.Group(pid); g != agentPid || g == syscall.Getpgrp() {
			t.Fatalf("process %d (%s) is in group %d, not the agent's own %d", pid, proctest.Comm(pid), g, agentPid)
		}
	}
	if proctest.Comm(agentPid) == "sh" || proctest.Comm(agentPid) == "node" {
		t.Fatalf("the agent runs without the supervising helper (%s)", proctest.Comm(agentPid))
	}
	r.pool.Close()
	proctest.WaitGone(t, append(tree, agentPid), 2*time.Second, "the agent's stop")
}
