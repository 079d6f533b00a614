package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A turn sent while the session's chore (a new worktree's set-up) runs starts its first step
// only once the chore has ended: the agent reads what the set-up wrote.
func TestATurnWaitsForTheSessionsChores(t *testing.T) {
	h := newHarness(t, script(`{"tool_calls":[{"name":"read","input":{"path":"ready.txt"}}]}`, `{"text":"done"}`),
		harnessOpts{override: "execute", permission: "full"})
	defer h.close()
	release := make(chan struct{})
	if err := h.rt.Chore(h.session, func(context.Context) {
		<-release
		os.WriteFile(filepath.Join(h.workspace, "ready.txt"), []byte("installed\n"), 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.Send(Input{SessionID: h.session, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	close(release)
	h.wait()
	if seen := h.recorded().resultsSeen(1); len(seen) != 1 || !strings.Contains(seen[0], "installed") {
		t.Fatalf("the turn read %v", seen)
	}
}

// The stop button stops a chore as it stops a turn; Shutdown waits for it.
func TestCancelStopsTheSessionsChores(t *testing.T) {
	h := newHarness(t, script(`{"text":"done"}`), harnessOpts{})
	defer h.close()
	ended := make(chan error, 1)
	if err := h.rt.Chore(h.session, func(ctx context.Context) {
		<-ctx.Done()
		ended <- ctx.Err()
	}); err != nil {
		t.Fatal(err)
	}
	if !h.rt.Cancel(h.session) {
		t.Fatal("Cancel found nothing to stop")
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the chore's context did not end")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the chore was not cancelled")
	}
}
