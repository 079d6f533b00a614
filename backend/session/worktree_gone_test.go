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
	"agentdesk/backend/worktree/worktreetest"
)

// isolatedTask is a session in its own worktree of a repository holding files, and its record.
func isolatedTask(t *testing.T, svc *Service, files map[string]string) (View, store.TaskWorktree) {
	t.Helper()
	v, err := svc.Create(CreateInput{Title: "Task", Workspace: worktreetest.Repo(t, files), Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := svc.Store.TaskWorktree(v.ID)
	if err != nil {
		t.Fatal(err)
	}
	return v, w
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=P", "-c", "user.email=p@example.com"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A task's worktree folder removed outside AgentDesk (by hand, or by a cleanup of temporary
// folders) is seen as missing, and the restore checks its branch out there again with every
// commit the task made; the person's repository stays whole.
func TestAWorktreeRemovedByHandIsCheckedOutAgain(t *testing.T) {
	svc := openStore(t)
	v, w := isolatedTask(t, svc, map[string]string{"a.txt": "a\n"})
	writeFile(t, filepath.Join(w.Path, "a.txt"), "a\nby the task\n")
	gitIn(t, w.Path, "commit", "-qam", "the task's commit")
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
	if got := gitIn(t, w.Path, "log", "--format=%s", "-1"); got != "the task's commit" {
		t.Fatalf("the branch checked out: %q", got)
	}
	gitIn(t, w.Repo, "fsck", "--strict", "--no-progress")
	if changed, err := svc.ReviewWorktree(context.Background(), v.ID); err != nil || len(changed.Files) != 1 {
		t.Fatalf("the review after the restore: %+v %v", changed, err)
	}
}

// Discarding a hunk from a task's copy is logged with the person's reason and the change taken
// back, as a turn's reverted change is, so the model reads both at its next turn; the window is told.
func TestADiscardIsLoggedWithItsReasonForTheModel(t *testing.T) {
	svc := openStore(t)
	var told []string
	svc.Publish = func(name string, _ any) { told = append(told, name) }
	v, w := isolatedTask(t, svc, map[string]string{"a.txt": "one\ntwo\n"})
	writeFile(t, filepath.Join(w.Path, "a.txt"), "one\nTWO\n")
	if err := svc.DiscardWorktreeFile(context.Background(), v.ID, "a.txt", []int{0}, "  keep it lowercase "); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(w.Path, "a.txt")); string(got) != "one\ntwo\n" {
		t.Fatalf("the task's copy: %q", got)
	}
	log, err := svc.Store.Log(v.ID)
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
