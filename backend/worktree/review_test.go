package worktree

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// lines is a file of n numbered lines, with the lines in edit replaced.
func lines(n int, edit map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := edit[i]; ok {
			b.WriteString(s + "\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func states(t *testing.T, task Task, path string) []string {
	t.Helper()
	r, err := task.Review(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Files {
		if f.Path == path {
			return f.HunkStates
		}
	}
	t.Fatalf("%s not in the review: %+v", path, r)
	return nil
}

// Two tasks edit the same file at once, each in its own worktree. Both come back hunk by hunk:
// the hunks that touch only lines nobody else changed go in, the one where both tasks changed
// the same lines is a conflict, and the person's own uncommitted edit in that file survives.
func TestTwoTasksComeBackHunkByHunkAroundThePersonsEdit(t *testing.T) {
	dir := repo(t, map[string]string{"app.txt": lines(40, nil)})
	a := create(t, dir, "hunks-a", "A", false)
	b := create(t, dir, "hunks-b", "B", false)
	write(t, filepath.Join(a.Path, "app.txt"), lines(40, map[int]string{2: "a: two", 30: "a: thirty"}))
	write(t, filepath.Join(b.Path, "app.txt"), lines(40, map[int]string{10: "b: ten", 30: "b: thirty"}))
	write(t, filepath.Join(dir, "app.txt"), lines(40, map[int]string{20: "the person's twenty"}))

	if got := states(t, a, "app.txt"); !reflect.DeepEqual(got, []string{StatePending, StatePending}) {
		t.Fatalf("a before: %v", got)
	}
	got, err := ApplyFile(context.Background(), a, "app.txt", []int{1})
	if err != nil || !got.Written || !reflect.DeepEqual(got.Hunks, []int{1}) || got.State != StatePending {
		t.Fatalf("a's second hunk: %+v %v", got, err)
	}
	if s := states(t, a, "app.txt"); !reflect.DeepEqual(s, []string{StatePending, StateApplied}) {
		t.Fatalf("a after one hunk: %v", s)
	}
	if _, err := ApplyFile(context.Background(), a, "app.txt", nil); err != nil {
		t.Fatal(err)
	}
	got, err = ApplyFile(context.Background(), b, "app.txt", nil)
	if err != nil || !reflect.DeepEqual(got.Hunks, []int{0}) || !reflect.DeepEqual(got.Conflicts, []int{1}) || got.State != StateConflict {
		t.Fatalf("b: %+v %v", got, err)
	}
	want := lines(40, map[int]string{2: "a: two", 10: "b: ten", 20: "the person's twenty", 30: "a: thirty"})
	if now := read(t, filepath.Join(dir, "app.txt")); now != want {
		t.Fatalf("the person's file:\n%s", now)
	}
	fsck(t, dir)
}

// Discarding a hunk undoes it in the task's own worktree only; discarding a file the task
// created removes it there. The person's folder is not touched.
func TestDiscardUndoesTheTasksChangeInItsOwnCopy(t *testing.T) {
	dir := repo(t, map[string]string{"app.txt": lines(40, nil)})
	task := create(t, dir, "discard-1", "D", false)
	write(t, filepath.Join(task.Path, "app.txt"), lines(40, map[int]string{2: "two", 30: "thirty"}))
	write(t, filepath.Join(task.Path, "new.txt"), "new\n")
	patch, err := DiscardFile(context.Background(), task, "app.txt", []int{0})
	if err != nil || !strings.Contains(patch, "-line 2\n+two\n") || strings.Contains(patch, "thirty") {
		t.Fatalf("discarding the first hunk took back %q: %v", patch, err)
	}
	if got := read(t, filepath.Join(task.Path, "app.txt")); got != lines(40, map[int]string{30: "thirty"}) {
		t.Fatalf("after discarding the first hunk:\n%s", got)
	}
	if _, err := DiscardFile(context.Background(), task, "new.txt", nil); err != nil {
		t.Fatal(err)
	}
	changed, _ := task.Changed(context.Background())
	if !reflect.DeepEqual(changed, []string{"app.txt"}) || read(t, filepath.Join(dir, "app.txt")) != lines(40, nil) {
		t.Fatalf("changed after discarding: %v", changed)
	}
	if _, err := DiscardFile(context.Background(), task, "other.txt", nil); err == nil {
		t.Fatal("a file the task did not change was discarded")
	}
}

// A file the task created goes whole, and only where the person has none of that name.
func TestACreatedFileGoesWholeAndNeverOverThePersons(t *testing.T) {
	dir := repo(t, map[string]string{"app.txt": "a\n"})
	task := create(t, dir, "whole-1", "W", false)
	write(t, filepath.Join(task.Path, "new.txt"), "the task's\n")
	write(t, filepath.Join(task.Path, "also.txt"), "the task's\n")
	write(t, filepath.Join(dir, "also.txt"), "the person's\n")
	got, err := Apply(context.Background(), task)
	if err != nil || !reflect.DeepEqual(got.Written, []string{"new.txt"}) || !reflect.DeepEqual(got.Conflicts, []string{"also.txt"}) {
		t.Fatalf("apply: %+v %v", got, err)
	}
	if read(t, filepath.Join(dir, "also.txt")) != "the person's\n" || read(t, filepath.Join(dir, "new.txt")) != "the task's\n" {
		t.Fatal("the person's file was written over")
	}
}

// A file applied hunk by hunk around the person's own edit has reached them, though the two files
// differ: removing the task keeps nothing of it.
func TestAFileAppliedHunkByHunkCountsAsMerged(t *testing.T) {
	dir := repo(t, map[string]string{"app.txt": lines(30, nil)})
	task := create(t, dir, "merged-hunks", "M", false)
	write(t, filepath.Join(task.Path, "app.txt"), lines(30, map[int]string{2: "two"}))
	write(t, filepath.Join(dir, "app.txt"), lines(30, map[int]string{20: "the person's"}))
	if left, _ := task.Unmerged(context.Background()); !reflect.DeepEqual(left, []string{"app.txt"}) {
		t.Fatalf("before applying: %v", left)
	}
	if _, err := ApplyFile(context.Background(), task, "app.txt", nil); err != nil {
		t.Fatal(err)
	}
	if left, _ := task.Unmerged(context.Background()); len(left) != 0 {
		t.Fatalf("after applying: %v", left)
	}
	if kept, err := Remove(context.Background(), task); err != nil || kept != nil {
		t.Fatalf("remove: %+v %v", kept, err)
	}
}
