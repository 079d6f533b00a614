package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/host"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// committedRepo is a repository with one commit of app.go.
func committedRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "app.go"), []byte("package app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "app.go"}, {"-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-qm", "a"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return repo
}

// runningHost is the composition root over a store in a folder of its own, its turns answered
// by script; what it publishes is collected in events.
func runningHost(t *testing.T, script string) (*host.Host, chan bus.Event) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := scripted.FromBytes("script", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(st, host.Options{Provider: agent.Fixed(prov), Messages: msgs, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	events := make(chan bus.Event, 1024)
	h.Bus.Subscribe(func(e bus.Event) {
		select {
		case events <- e:
		default:
		}
	})
	return h, events
}

func unapplied(t *testing.T, st *store.Store, id string) int {
	t.Helper()
	w, ok, err := st.TaskWorktree(id)
	if err != nil || !ok {
		t.Fatalf("worktree of %s: %v %v", id, ok, err)
	}
	return w.Unapplied
}

// A turn that changed a file in the task's own worktree leaves the count of files not applied
// at one, and says so to the windows; applying the change into the person's folder brings it
// back to none; a removal is told too.
func TestTheCountOfFilesNotAppliedFollowsTurnsAndApply(t *testing.T) {
	h, events := runningHost(t, `{"responses":[
		{"tool_calls":[{"name":"write","input":{"path":"app.go","content":"package app\n\nfunc Task() {}\n"}}]},
		{"text":"Done."}]}`)
	repo := committedRepo(t)
	full, execute := "full", "execute"
	svc := &session.Service{Store: h.Store, Publish: h.Bus.Publish}
	v, err := svc.Create(session.CreateInput{Title: "task", Workspace: repo, Isolated: true, Permission: &full,
		Mode: mode.FollowUpInput{ExecutionOverride: &execute}})
	if err != nil {
		t.Fatal(err)
	}
	if n := unapplied(t, h.Store, v.ID); n != 0 {
		t.Fatalf("a new task counts %d", n)
	}
	if _, err := h.Runtime.Send(agent.Input{SessionID: v.ID, Text: "change app.go"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Runtime.Wait(context.Background(), v.ID); err != nil {
		t.Fatal(err)
	}
	if n := unapplied(t, h.Store, v.ID); n != 1 {
		t.Fatalf("after the turn the count is %d", n)
	}
	if got := nextChange(t, events); got != (session.WorktreeChanged{SessionID: v.ID, Unapplied: 1}) {
		t.Fatalf("published %+v", got)
	}

	applied, err := svc.ApplyWorktree(context.Background(), v.ID)
	if err != nil || len(applied.Conflicts) != 0 {
		t.Fatalf("apply %+v %v", applied, err)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "app.go")); string(got) != "package app\n\nfunc Task() {}\n" {
		t.Fatalf("the person's app.go: %q", got)
	}
	if n := unapplied(t, h.Store, v.ID); n != 0 {
		t.Fatalf("after apply the count is %d", n)
	}
	if got := nextChange(t, events); got != (session.WorktreeChanged{SessionID: v.ID}) {
		t.Fatalf("published after apply %+v", got)
	}
	// Removing the worktree changes no count here (all had reached the person), yet the windows
	// are told: the task is no longer side by side.
	if _, err := svc.RemoveWorktree(context.Background(), v.ID); err != nil {
		t.Fatal(err)
	}
	if got := nextChange(t, events); got != (session.WorktreeChanged{SessionID: v.ID, Removed: true}) {
		t.Fatalf("published after remove %+v", got)
	}
}

// nextChange is the next worktree.changed published (the bus delivers on its own goroutine).
func nextChange(t *testing.T, events chan bus.Event) session.WorktreeChanged {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-events:
			if u, ok := e.Data.(session.WorktreeChanged); ok && e.Name == session.EventWorktreeChanged {
				return u
			}
		case <-timeout:
			t.Fatal("no worktree.changed")
		}
	}
}
