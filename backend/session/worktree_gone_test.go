package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
)

// A task's worktree folder removed outside AgentDesk (by hand, or by a cleanup of temporary
// folders) is seen as missing, and the restore checks its branch out there again with every
// commit the task made; the person's repository stays whole.
func TestAWorktreeRemovedByHandIsCheckedOutAgain(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := &Service{Store: st}
	repo := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=P", "-c", "user.email=p@example.com"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(repo, "init", "-q")
	git(repo, "add", "a.txt")
	git(repo, "commit", "-qm", "a")
	v, err := svc.Create(CreateInput{Title: "Gone", Workspace: repo, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	w, _, _ := st.TaskWorktree(v.ID)
	if err := os.WriteFile(filepath.Join(w.Path, "a.txt"), []byte("a\nby the task\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(w.Path, "commit", "-qam", "the task's commit")
	if err := os.RemoveAll(w.Path); err != nil {
		t.Fatal(err)
	}
	if !TaskOf(w).Missing() {
		t.Fatal("the removed folder is not seen as missing")
	}
	if _, err := svc.ReviewWorktree(context.Background(), v.ID); err == nil {
		t.Fatal("a review of a missing copy went ahead")
	}
	if err := svc.RestoreWorktree(context.Background(), v.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(w.Path, "a.txt")); string(got) != "a\nby the task\n" {
		t.Fatalf("after the restore: %q", got)
	}
	if got := git(w.Path, "log", "--format=%s", "-1"); got != "the task's commit" {
		t.Fatalf("the branch checked out: %q", got)
	}
	git(repo, "fsck", "--strict", "--no-progress")
	if changed, err := svc.ReviewWorktree(context.Background(), v.ID); err != nil || len(changed.Files) != 1 {
		t.Fatalf("the review after the restore: %+v %v", changed, err)
	}
}

// Discarding a hunk from a task's copy is logged with the person's reason and the change taken
// back, as a turn's reverted change is, so the model reads both at its next turn; the window is told.
func TestADiscardIsLoggedWithItsReasonForTheModel(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var told []string
	svc := &Service{Store: st, Publish: func(name string, _ any) { told = append(told, name) }}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt"}, {"-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-qm", "a"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	v, err := svc.Create(CreateInput{Title: "Discard", Workspace: repo, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	w, _, _ := st.TaskWorktree(v.ID)
	if err := os.WriteFile(filepath.Join(w.Path, "a.txt"), []byte("one\nTWO\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := svc.DiscardWorktreeFile(context.Background(), v.ID, "a.txt", []int{0}, "  keep it lowercase "); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(w.Path, "a.txt")); string(got) != "one\ntwo\n" {
		t.Fatalf("the task's copy: %q", got)
	}
	log, err := st.Log(v.ID)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := log[len(log)-1].Payload.(eventlog.Review)
	if !ok || r.Action != eventlog.ReviewRevert || r.Reason != "keep it lowercase" || !strings.Contains(r.Patch, "-two\n+TWO") {
		t.Fatalf("the last entry: %#v", log[len(log)-1].Payload)
	}
	if !slices.Contains(told, rewind.EventReviewed) {
		t.Fatalf("published: %v", told)
	}
}
