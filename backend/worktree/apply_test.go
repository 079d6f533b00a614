package worktree

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// Two tasks changed the same file: the first applies; the second's change to it is a conflict
// and leaves the file as the first left it; the person's own uncommitted edit survives both.
func TestApplyWritesWhatThePersonLeftAloneAndListsTheRestAsConflicts(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n", "mine.txt": "base\n"})
	a := create(t, dir, "apply-a", "A", false)
	b := create(t, dir, "apply-b", "B", false)
	write(t, filepath.Join(dir, "mine.txt"), "the person's edit\n")
	write(t, filepath.Join(a.Path, "app.go"), "package app\n// a\n")
	write(t, filepath.Join(a.Path, "new.txt"), "from a\n")
	write(t, filepath.Join(b.Path, "app.go"), "package app\n// b\n")
	write(t, filepath.Join(b.Path, "mine.txt"), "b wants this\n")

	got, err := Apply(context.Background(), a)
	if err != nil || !reflect.DeepEqual(got.Written, []string{"app.go", "new.txt"}) || len(got.Conflicts) != 0 {
		t.Fatalf("apply a: %+v %v", got, err)
	}
	got, err = Apply(context.Background(), b)
	if err != nil || len(got.Written) != 0 || !sameSet(got.Conflicts, []string{"app.go", "mine.txt"}) {
		t.Fatalf("apply b: %+v %v", got, err)
	}
	if read(t, filepath.Join(dir, "app.go")) != "package app\n// a\n" || read(t, filepath.Join(dir, "mine.txt")) != "the person's edit\n" {
		t.Fatal("a conflict touched the person's folder")
	}
	again, _ := Apply(context.Background(), a)
	if !sameSet(again.Same, []string{"app.go", "new.txt"}) {
		t.Fatalf("applying again: %+v", again)
	}
	fsck(t, dir)
}

// Merge brings the task's commits into the person's branch (squashed into one), after which the
// task counts as merged and its removal keeps nothing.
func TestMergeSquashesTheBranchIntoThePersonsBranch(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "P")
	t.Setenv("GIT_AUTHOR_EMAIL", "p@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "P")
	t.Setenv("GIT_COMMITTER_EMAIL", "p@example.com")
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	task := create(t, dir, "merge-1", "Merge", false)
	write(t, filepath.Join(task.Path, "app.go"), "package app\n// merged\n")
	gitIn(t, task.Path, "commit", "--quiet", "-am", "work")
	write(t, filepath.Join(dir, "app.go"), "dirty\n")
	if err := Merge(context.Background(), task, true, "Merge"); err == nil {
		t.Fatal("a merge into a folder with uncommitted changes went ahead")
	}
	gitIn(t, dir, "checkout", "--quiet", "--", "app.go")
	if err := Merge(context.Background(), task, true, "The task's work"); err != nil {
		t.Fatal(err)
	}
	if got := gitIn(t, dir, "log", "--format=%s", "-1"); got != "The task's work" || read(t, filepath.Join(dir, "app.go")) != "package app\n// merged\n" {
		t.Fatalf("after the merge: %q", got)
	}
	if kept, err := Remove(context.Background(), task); err != nil || kept != nil {
		t.Fatalf("remove after merge: %+v %v", kept, err)
	}
	fsck(t, dir)
}
