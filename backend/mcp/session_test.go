package mcp

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/tool"
)

// An editor's servers serve that session only: pinned at their first listing, held to it after.
func TestSessionServersFromAnEditor(t *testing.T) {
	th := newTestHost(t)
	bad := th.SetSessionServers("s1", []Config{{Name: "ed", Transport: Stdio, Command: fixture}, {Name: "bad name", Transport: Stdio, Command: "x"}})
	if len(bad) != 1 || errs.KindOf(bad[0]) != errs.InvalidValue {
		t.Fatalf("validation: %v", bad)
	}
	names := strings.Join(offeredNames(th), " ")
	if !strings.Contains(names, "mcp__ed__echo") {
		t.Fatalf("the editor's server is not offered: %s", names)
	}
	if other := th.Offered(context.Background(), "s2", th.workspace); len(other) != 0 {
		t.Fatalf("another session sees the editor's server: %d tools", len(other))
	}
	if res, err := th.run("mcp__ed__echo", `{"text":"hi"}`, tool.Env{}); err != nil || res.Output != "echo: hi" {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	if _, err := th.run("mcp__ed__evolve", `{}`, tool.Env{}); err != nil {
		t.Fatal(err)
	}
	if _, err := th.run("mcp__ed__echo", `{"text":"hi","loud":true}`, tool.Env{}); errs.KindOf(err) != ToolChanged {
		t.Fatalf("a changed tool of an editor's server: %v", err)
	}
}
