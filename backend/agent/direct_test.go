package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

func TestDirectRunsObeyTheSessionPermission(t *testing.T) {
	h := newHarness(t, script(), harnessOpts{override: "plan"})
	ctx := context.Background()
	out, err := h.rt.RunDirect(ctx, h.session, "write", json.RawMessage(`{"path":"a.txt","content":"x"}`), true)
	if err != nil || !out.IsError || out.Code != "WRITE_DISABLED_IN_READ_ONLY" {
		t.Fatalf("write in plan, even confirmed: %+v %v", out, err)
	}
	os.WriteFile(filepath.Join(h.workspace, "b.txt"), []byte("hello"), 0o644)
	out, err = h.rt.RunDirect(ctx, h.session, "read", json.RawMessage(`{"path":"b.txt"}`), false)
	if err != nil || out.IsError || out.NeedsApproval || !strings.Contains(out.Output, "hello") {
		t.Fatalf("read in plan: %+v %v", out, err)
	}
	h.rt.Configure(h.session, mode.FollowUpInput{ExecutionOverride: str("execute")})
	bash := json.RawMessage(`{"command":"echo direct > c.txt"}`)
	out, _ = h.rt.RunDirect(ctx, h.session, "bash", bash, false)
	if !out.NeedsApproval || out.Summary != "echo direct > c.txt" || out.ReasonKey == "" {
		t.Fatalf("a shell command in ask must wait for the person: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(h.workspace, "c.txt")); err == nil {
		t.Fatal("the command ran before the person confirmed")
	}
	outside := filepath.Join(t.TempDir(), "outside.txt")
	out, _ = h.rt.RunDirect(ctx, h.session, "write", json.RawMessage(`{"path":"`+outside+`","content":"x"}`), false)
	if !out.NeedsApproval || out.Code != "PATH_OUTSIDE_WORKSPACE" {
		t.Fatalf("a write outside the workspace must wait for the person: %+v", out)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the outside file was written unconfirmed")
	}
	out, _ = h.rt.RunDirect(ctx, h.session, "bash", bash, true)
	if out.IsError || out.NeedsApproval || len(h.named("decision.asked")) != 0 {
		t.Fatalf("a confirmed direct run runs, with no decision of its own: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(h.workspace, "c.txt")); err != nil {
		t.Fatal(err)
	}
}

func TestAQueuedSwitchCanBeCancelled(t *testing.T) {
	h := newHarness(t, script(`{"text":"slow","delay_ms":200}`), harnessOpts{})
	h.rt.Send(Input{SessionID: h.session, Text: "go"})
	h.rt.Configure(h.session, mode.FollowUpInput{InteractionMode: str("chat")})
	if err := h.rt.Unqueue(h.session, 0); err != nil {
		t.Fatal(err)
	}
	h.wait()
	if p := h.pref(); p.Interaction != mode.Smart {
		t.Fatalf("a cancelled switch applied: %+v", p)
	}
}
