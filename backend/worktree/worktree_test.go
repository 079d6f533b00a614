package worktree

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/worktree/worktreetest"
)

func repo(t *testing.T, files map[string]string) string { return worktreetest.Repo(t, files) }

func gitIn(t *testing.T, dir string, args ...string) string { return worktreetest.Git(t, dir, args...) }

func write(t *testing.T, path, body string) { worktreetest.Write(t, path, body) }

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fsck fails the test unless the repository is whole.
func fsck(t *testing.T, dir string) {
	t.Helper()
	gitIn(t, dir, "fsck", "--strict", "--no-progress")
}

func create(t *testing.T, dir, id, title string, carry bool) Task {
	t.Helper()
	task, err := Create(context.Background(), dir, filepath.Join(t.TempDir(), "worktrees"), id, title, carry)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// Two tasks edit the same file at once, each in its own worktree on its own branch; the person's
// folder, and their own uncommitted edit in it, stay as they were.
func TestTwoTasksEditTheSameFileEachInItsOwnWorktree(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	write(t, filepath.Join(dir, "notes.txt"), "mine, not committed\n")
	a := create(t, dir, "01a2b3c4-aaaa-1111", "Fix the login bug", false)
	b := create(t, dir, "01a2b3c4-bbbb-2222", "Refactor app", false)
	if a.Path == b.Path || a.Branch == b.Branch || !strings.HasPrefix(a.Branch, "agentdesk/aaaa1111/fix-the-login-bug") {
		t.Fatalf("tasks %+v %+v", a, b)
	}
	write(t, filepath.Join(a.Path, "app.go"), "package app\n\n// from a\n")
	write(t, filepath.Join(b.Path, "app.go"), "package app\n\n// from b\n")
	if got := read(t, filepath.Join(dir, "app.go")); got != "package app\n" {
		t.Fatalf("the person's folder changed: %q", got)
	}
	if got := read(t, filepath.Join(dir, "notes.txt")); got != "mine, not committed\n" {
		t.Fatalf("the person's own edit: %q", got)
	}
	for _, task := range []Task{a, b} {
		changed, err := task.Changed(context.Background())
		if err != nil || !reflect.DeepEqual(changed, []string{"app.go"}) {
			t.Fatalf("%s changed %v %v", task.Branch, changed, err)
		}
	}
	fsck(t, dir)
}

// The person's uncommitted edits come along when they ask, and stay in their folder too.
func TestCarryOverBringsTheUncommittedEdits(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	write(t, filepath.Join(dir, "app.go"), "package app\n// wip\n")
	task := create(t, dir, "carry-1", "Carry", true)
	if got := read(t, filepath.Join(task.Path, "app.go")); got != "package app\n// wip\n" {
		t.Fatalf("not carried over: %q", got)
	}
	if got := read(t, filepath.Join(dir, "app.go")); got != "package app\n// wip\n" {
		t.Fatalf("the person's edit: %q", got)
	}
	fsck(t, dir)
}

// A task squash-merged into the person's branch is merged, whatever its branch's ancestry says;
// removing it removes the branch too.
func TestASquashMergedTaskIsRecognizedAsMerged(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n", "old.txt": "old\n"})
	task := create(t, dir, "squash-1", "Squash me", false)
	write(t, filepath.Join(task.Path, "app.go"), "package app\n\nfunc A() {}\n")
	gitIn(t, task.Path, "commit", "--quiet", "-am", "one")
	os.Remove(filepath.Join(task.Path, "old.txt"))
	write(t, filepath.Join(task.Path, "new.txt"), "new\n")
	gitIn(t, task.Path, "add", "--all")
	gitIn(t, task.Path, "commit", "--quiet", "-m", "two")
	if un, err := task.Unmerged(context.Background()); err != nil || len(un) != 3 {
		t.Fatalf("before the merge, unmerged %v %v", un, err)
	}
	gitIn(t, dir, "merge", "--squash", "--quiet", task.Branch)
	gitIn(t, dir, "commit", "--quiet", "-m", "squashed")
	if gitIn(t, dir, "branch", "--merged", "main", "--list", task.Branch) != "" {
		t.Fatal("git itself calls the squashed branch merged: the test proves nothing")
	}
	if un, err := task.Unmerged(context.Background()); err != nil || len(un) != 0 {
		t.Fatalf("after a squash merge, unmerged %v %v", un, err)
	}
	kept, err := Remove(context.Background(), task)
	if err != nil || kept != nil {
		t.Fatalf("remove: kept %+v, %v", kept, err)
	}
	if gitIn(t, dir, "branch", "--list", task.Branch) != "" {
		t.Fatal("the merged task's branch is left behind")
	}
	fsck(t, dir)
}

// Removing a task with unmerged commits and uncommitted files keeps both, and the restore brings
// every file back byte for byte, still uncommitted.
func TestRemoveKeepsUnmergedWorkAndRestoreBringsItBack(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n", "gone.txt": "bye\n", "keep.txt": "k\n"})
	task := create(t, dir, "keep-1", "Keep me", false)
	write(t, filepath.Join(task.Path, "app.go"), "package app\n\nfunc Committed() {}\n")
	gitIn(t, task.Path, "commit", "--quiet", "-am", "committed work")
	write(t, filepath.Join(task.Path, "keep.txt"), "k, edited\n")
	write(t, filepath.Join(task.Path, "dir", "new.bin"), "\x00\x01binary\xff")
	os.Remove(filepath.Join(task.Path, "gone.txt"))
	before := snapshot(t, task.Path)
	status := gitIn(t, task.Path, "status", "--porcelain")

	kept, err := Remove(context.Background(), task)
	if err != nil || kept == nil {
		t.Fatalf("remove: kept %+v, %v", kept, err)
	}
	if want := []string{"app.go", "gone.txt", "keep.txt", "dir/new.bin"}; !sameSet(kept.Files, want) {
		t.Fatalf("kept files %v, want %v", kept.Files, want)
	}
	if _, err := os.Stat(task.Path); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	fsck(t, dir)

	if err := Restore(context.Background(), task, *kept); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, task.Path); !reflect.DeepEqual(after, before) {
		t.Fatalf("restored files differ:\n%v\nwant\n%v", after, before)
	}
	if got := gitIn(t, task.Path, "status", "--porcelain"); got != status {
		t.Fatalf("status after restore %q, want %q", got, status)
	}
	if gitIn(t, dir, "for-each-ref", "refs/agentdesk/") != "" {
		t.Fatal("the kept ref outlives the restore")
	}
	fsck(t, dir)
}

// snapshot reads every file of a work tree but its .git.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			out[rel] = read(t, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}

func TestNotARepositoryIsSaidSo(t *testing.T) {
	_, err := Create(context.Background(), t.TempDir(), t.TempDir(), "x", "y", false)
	if err == nil || !strings.Contains(err.Error(), string(NotARepository)) {
		t.Fatalf("err %v", err)
	}
}

// The repository here asks git to pack after every commit, in the foreground so that a pack would
// be seen at once: the app's own commits must leave that to the person's next git command.
func TestTheAppsGitStartsNoMaintenance(t *testing.T) {
	dir := repo(t, map[string]string{"a.txt": "a\n"})
	gitIn(t, dir, "config", "gc.auto", "1")
	gitIn(t, dir, "config", "gc.autoDetach", "false")
	for i := 0; i < 1000; i++ { // git estimates loose objects from one of 256 folders
		write(t, filepath.Join(dir, "b", fmt.Sprint(i)), fmt.Sprint(i))
	}
	ctx := context.Background()
	for _, args := range [][]string{{"add", "b"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "b"}} {
		if _, err := run(ctx, dir, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if err != nil || len(packs) != 0 {
		t.Fatalf("packs after the app's commit: %v (%v)", packs, err)
	}
}
