package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
