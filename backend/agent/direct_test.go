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

func TestDirectRunsObeyTheHardDenyButNeverAsk(t *testing.T) {
	h := newHarness(t, script(), harnessOpts{override: "plan"})
	out, err := h.rt.RunDirect(context.Background(), h.session, "write", json.RawMessage(`{"path":"a.txt","content":"x"}`))
	if err != nil || !out.IsError || out.Code != "WRITE_DISABLED_IN_READ_ONLY" {
		t.Fatalf("write in plan: %+v %v", out, err)
	}
	os.WriteFile(filepath.Join(h.workspace, "b.txt"), []byte("hello"), 0o644)
	out, err = h.rt.RunDirect(context.Background(), h.session, "read", json.RawMessage(`{"path":"b.txt"}`))
	if err != nil || out.IsError || !strings.Contains(out.Output, "hello") {
		t.Fatalf("read in plan: %+v %v", out, err)
	}
	h.rt.Configure(h.session, mode.FollowUpInput{ExecutionOverride: str("execute")})
	out, _ = h.rt.RunDirect(context.Background(), h.session, "bash", json.RawMessage(`{"command":"echo direct > c.txt"}`))
	if out.IsError || len(h.named("decision.asked")) != 0 {
		t.Fatalf("a direct run must not ask: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(h.workspace, "c.txt")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(h.workspace, ".git"), 0o755)
	out, _ = h.rt.RunDirect(context.Background(), h.session, "write", json.RawMessage(`{"path":".git/config","content":"x"}`))
	if !out.IsError || out.Code != "PROTECTED_PATH" {
		t.Fatalf("a direct write to .git must be refused: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(h.workspace, ".git", "config")); err == nil {
		t.Fatal("the protected file was written")
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
