//go:build linux

package mcp

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/proc/proctest"
	"agentdesk/backend/tool"
)

// addShellServer adds and enables a stdio server run by sh -c script (the fixture is $FIXTURE).
func (th *testHost) addShellServer(name, script string) {
	th.t.Helper()
	v, err := th.Add(Config{Name: name, Transport: Stdio, Command: "sh", Args: []string{"-c", script},
		Env: map[string]string{"FIXTURE": fixture}}, "test")
	if err != nil {
		th.t.Fatal(err)
	}
	if _, err = th.Enable(context.Background(), v.ID, th.workspace); err != nil {
		th.t.Fatal(err)
	}
}

// serverTree is the running server's leader and everything below it, once a sleep runs there.
func serverTree(t *testing.T, th *testHost, name string) (int, []int) {
	t.Helper()
	if _, err := th.run("mcp__"+name+"__echo", `{"text":"up"}`, tool.Env{}); err != nil {
		t.Fatal(err)
	}
	leader := th.pid(t, name)
	tree := proctest.WaitForDescendant(t, leader, "sleep")
	for _, pid := range tree {
		if g := proctest.Group(pid); g != leader || g == syscall.Getpgrp() {
			t.Fatalf("process %d (%s) is in group %d, not the server's own %d", pid, proctest.Comm(pid), g, leader)
		}
	}
	if c := proctest.Comm(leader); c == "sh" || c == "fixture" {
		t.Fatalf("the server runs without the supervising helper (%s)", c)
	}
	return leader, tree
}

// A stdio server leads its own process group under the supervising helper, and Close takes
// everything it started along: here a background child of its shell.
func TestAStdioServerIsStoppedWithEverythingItStarted(t *testing.T) {
	th := newTestHost(t)
	th.addShellServer("notes", `sleep 30 & exec "$FIXTURE"`)
	leader, tree := serverTree(t, th, "notes")
	if err := th.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	proctest.WaitGone(t, append(tree, leader), 2*time.Second, "the host's Close")
}

// A child that left the server's group and session (setsid) goes too: the server's helper is
// the first process of its PID namespace.
func TestAStdioServersSetsidChildEndsWithIt(t *testing.T) {
	th := newTestHost(t)
	th.addShellServer("notes", `setsid -f sleep 30; exec "$FIXTURE"`)
	if _, err := th.run("mcp__notes__echo", `{"text":"up"}`, tool.Env{}); err != nil {
		t.Fatal(err)
	}
	leader := th.pid(t, "notes")
	tree := proctest.WaitForDescendant(t, leader, "sleep")
	if err := th.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	proctest.WaitGone(t, append(tree, leader), 2*time.Second, "the host's Close")
}

// A server that does not end when its input closes is killed, whole group, at Close's deadline,
// and Close says so instead of waiting out the graceful steps.
func TestCloseKillsAServerStillStoppingAtItsDeadline(t *testing.T) {
	th := newTestHost(t)
	th.addShellServer("stubborn", `trap "" TERM; sleep 30 & "$FIXTURE"; wait`)
	leader, tree := serverTree(t, th, "stubborn")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := th.Close(ctx)
	if !errors.Is(err, ErrKilled) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close past its deadline: %v", err)
	}
	if took := time.Since(start); took > graceful {
		t.Fatalf("Close took %v, past its deadline and the first graceful step", took)
	}
	proctest.WaitGone(t, append(tree, leader), time.Second, "the kill at Close's deadline")
}
