package worktree

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"

	"agentdesk/backend/errs"
	"agentdesk/backend/hunk"
)

// States of a hunk, or of a file taken whole, against the person's folder as it is now.
const (
	// StatePending: the person's folder still holds what the task replaced: it can be applied.
	StatePending = "pending"
	// StateApplied: the person's folder already holds the task's result.
	StateApplied = "applied"
	// StateConflict: neither: the person changed those lines (or the file) since the task began.
	StateConflict = "conflict"
)

// Actions of a file in a task's review.
const (
	ActionCreate = "create"
	ActionModify = "modify"
	ActionDelete = "delete"
)

// maxReviewBytes bounds a side shown line by line; a larger file is applied whole.
const maxReviewBytes = 1 << 20

// TaskFile is one file the task changed against its base, as hunks the person applies to
// their folder (or discards from the task) one by one. A file without hunks (binary, too large,
// a link, created or deleted whole) goes whole, and State says how.
type TaskFile struct {
	Path   string      `json:"path"`
	Action string      `json:"action"`
	Before string      `json:"before"` // at the task's base
	After  string      `json:"after"`  // in the task's worktree
	Hunks  []hunk.Hunk `json:"hunks"`
	// Omitted says why the sides are not shown ("binary", "too_large", "link").
	Omitted string `json:"omitted,omitempty"`
	// State is the file's own when it goes whole; else applied when every hunk is, conflict
	// when any is, pending otherwise.
	State      string   `json:"state"`
	HunkStates []string `json:"hunkStates"`
}

// TaskChanges is everything a task changed against its base, committed or not.
type TaskChanges struct {
	Files []TaskFile `json:"files"`
}

// side is a file's content in one place: absent, unreadable as text, or text.
type side struct {
	data    []byte
	exists  bool
	omitted string
}

// Review compares the task's worktree with its base, and each change with the person's folder.
func (t Task) Review(ctx context.Context) (TaskChanges, error) {
	changed, err := t.Changed(ctx)
	if err != nil {
		return TaskChanges{}, err
	}
	out := TaskChanges{Files: []TaskFile{}}
	for _, p := range changed {
		out.Files = append(out.Files, t.reviewFile(ctx, p))
	}
	return out, nil
}

func (t Task) reviewFile(ctx context.Context, p string) TaskFile {
	base, theirs := t.baseSide(ctx, p), sideOf(filepath.Join(t.Repo, p))
	mine := sideOf(filepath.Join(t.Path, p))
	f := TaskFile{Path: p, Action: actionOf(base, mine), HunkStates: []string{}}
	f.Omitted = firstOf(mine.omitted, base.omitted)
	if f.Omitted == "" {
		f.Before, f.After = string(base.data), string(mine.data)
	}
	if f.Action == ActionModify && f.Omitted == "" {
		f.Hunks = hunk.Diff(f.Before, f.After)
	}
	if len(f.Hunks) == 0 {
		f.State = wholeState(base, mine, theirs)
		return f
	}
	f.HunkStates = hunkStates(f.Hunks, theirs)
	f.State = overall(f.HunkStates)
	return f
}

func (t Task) baseSide(ctx context.Context, p string) side {
	data, ok := blobAt(ctx, t.Repo, t.Base, p)
	return classify(data, ok)
}

// sideOf reads a regular file; a link, a folder or nothing reads as absent, so a link the task
// made is never followed out of its worktree.
func sideOf(path string) side {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return side{}
	case fi.Mode()&os.ModeSymlink != 0:
		return side{exists: true, omitted: "link"}
	case !fi.Mode().IsRegular():
		return side{}
	}
	data, err := os.ReadFile(path)
	return classify(data, err == nil)
}

func classify(data []byte, ok bool) side {
	s := side{data: data, exists: ok}
	switch {
	case !ok:
	case len(data) > maxReviewBytes:
		s.omitted = "too_large"
	case !hunk.IsText(data):
		s.omitted = "binary"
	}
	return s
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func actionOf(base, mine side) string {
	switch {
	case !base.exists:
		return ActionCreate
	case !mine.exists:
		return ActionDelete
	}
	return ActionModify
}

// wholeState judges a file that goes whole: pending while the person's folder still has it as
// the base had it, applied once it has it as the task has it, a conflict otherwise.
func wholeState(base, mine, theirs side) string {
	switch {
	case same(theirs, mine):
		return StateApplied
	case same(theirs, base):
		return StatePending
	}
	return StateConflict
}

func same(a, b side) bool {
	return a.exists == b.exists && a.omitted != "link" && b.omitted != "link" && bytes.Equal(a.data, b.data)
}

// hunkStates judges each hunk on its own against the person's file: applied when its result is
// there (checked first, so a hunk that only adds lines is not offered twice), pending when the
// lines it replaces are, a conflict otherwise.
func hunkStates(hunks []hunk.Hunk, theirs side) []string {
	out := make([]string, len(hunks))
	for i := range hunks {
		out[i] = StateConflict
		if !theirs.exists || theirs.omitted != "" {
			continue
		}
		if _, err := hunk.Apply(string(theirs.data), hunks, []int{i}, true); err == nil {
			out[i] = StateApplied
		} else if _, err := hunk.Apply(string(theirs.data), hunks, []int{i}, false); err == nil {
			out[i] = StatePending
		}
	}
	return out
}

func overall(states []string) string {
	switch {
	case slices.Contains(states, StateConflict):
		return StateConflict
	case slices.Contains(states, StatePending):
		return StatePending
	}
	return StateApplied
}

// FileApplied says what applying one file did, by hunk index (none for a file that goes whole).
type FileApplied struct {
	Path      string `json:"path"`
	Written   bool   `json:"written"`
	Hunks     []int  `json:"hunks"`     // written now
	Conflicts []int  `json:"conflicts"` // asked for but the person changed their lines: left
	State     string `json:"state"`     // the file's state afterwards
}

// ApplyFile writes the task's change of path into the person's folder: the hunks at pick (every
// pending one when pick is empty), each only where the person's file still holds the lines it
// replaces, so their own edits elsewhere in the file survive. A file that goes whole is written
// only while the person's folder has it as the base had it.
func ApplyFile(ctx context.Context, t Task, path string, pick []int) (FileApplied, error) {
	f, err := t.changedFile(ctx, path)
	if err != nil {
		return FileApplied{}, err
	}
	return t.apply(ctx, f, pick)
}

func (t Task) apply(ctx context.Context, f TaskFile, pick []int) (FileApplied, error) {
	path := f.Path
	out := FileApplied{Path: path, Hunks: []int{}, Conflicts: []int{}, State: f.State}
	if len(f.Hunks) == 0 {
		if f.State == StatePending {
			if err := t.putWhole(path); err != nil {
				return out, err
			}
			out.Written, out.State = true, StateApplied
		}
		return out, nil
	}
	if err := validPick(f.Hunks, pick); err != nil {
		return out, err
	}
	for i, st := range f.HunkStates {
		chosen := len(pick) == 0 || slices.Contains(pick, i)
		switch {
		case chosen && st == StatePending:
			out.Hunks = append(out.Hunks, i)
		case chosen && st == StateConflict && len(pick) > 0:
			out.Conflicts = append(out.Conflicts, i)
		}
	}
	if len(pick) == 0 {
		out.Conflicts = indexesOf(f.HunkStates, StateConflict)
	}
	if len(out.Hunks) == 0 {
		return out, nil
	}
	if err := t.putHunks(path, f.Hunks, out.Hunks); err != nil {
		return out, err
	}
	out.Written = true
	out.State = t.reviewFile(ctx, path).State
	return out, nil
}

// changedFile is the review of one path the task changed.
func (t Task) changedFile(ctx context.Context, path string) (TaskFile, error) {
	changed, err := t.Changed(ctx)
	if err != nil {
		return TaskFile{}, err
	}
	if !slices.Contains(changed, path) {
		return TaskFile{}, errs.Invalid("path", path, changed)
	}
	return t.reviewFile(ctx, path), nil
}

func validPick(hunks []hunk.Hunk, pick []int) error {
	_, err := hunk.Apply("", hunks, pick, false)
	if errs.KindOf(err) == hunk.Conflict {
		return nil // the indexes were fine: the empty content simply lacks the lines
	}
	return err
}

func indexesOf(states []string, want string) []int {
	out := []int{}
	for i, s := range states {
		if s == want {
			out = append(out, i)
		}
	}
	return out
}

// putWhole gives the person's file the task's content (or removes it, as the task did).
func (t Task) putWhole(path string) error {
	if !inside(t.Repo, path) {
		return errs.New(GitFailed, "Detail", "outside the repository: "+path)
	}
	_, exists := readRegular(filepath.Join(t.Path, path))
	if err := put(filepath.Join(t.Path, path), filepath.Join(t.Repo, path), exists); err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	return nil
}

// putHunks applies the hunks at pick to the person's file as it is now, keeping its mode.
func (t Task) putHunks(path string, hunks []hunk.Hunk, pick []int) error {
	dst := filepath.Join(t.Repo, path)
	if !inside(t.Repo, path) {
		return errs.New(GitFailed, "Detail", "outside the repository: "+path)
	}
	cur, ok := readRegular(dst)
	if !ok {
		return errs.New(hunk.Conflict, "Hunk", pick[0]+1)
	}
	next, err := hunk.Apply(string(cur), hunks, pick, false)
	if err != nil {
		return err
	}
	return writeKeepingMode(dst, []byte(next))
}

func writeKeepingMode(dst string, data []byte) error {
	fi, err := os.Stat(dst)
	if err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	tmp := dst + ".agentdesk-apply"
	if err := os.WriteFile(tmp, data, fi.Mode().Perm()); err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	if err := os.Rename(tmp, dst); err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	return nil
}

// DiscardFile undoes the task's change of path in its own worktree: the hunks at pick (the whole
// change when pick is empty), so they are neither applied nor kept. The person's folder is not
// touched. It returns what it took back as a unified diff ("" for a file without hunks).
func DiscardFile(ctx context.Context, t Task, path string, pick []int) (string, error) {
	f, err := t.changedFile(ctx, path)
	if err != nil {
		return "", err
	}
	if err := validPick(f.Hunks, pick); err != nil {
		return "", err
	}
	if len(f.Hunks) == 0 {
		return "", t.restoreBase(ctx, path)
	}
	patch := hunk.Patch(path, f.Hunks, allIfNone(pick, len(f.Hunks)))
	if len(pick) == 0 {
		return patch, t.restoreBase(ctx, path)
	}
	next, err := hunk.Apply(f.After, f.Hunks, pick, true)
	if err != nil {
		return "", err
	}
	return patch, writeKeepingMode(filepath.Join(t.Path, path), []byte(next))
}

// allIfNone is pick, or every index of n when pick is empty.
func allIfNone(pick []int, n int) []int {
	if len(pick) > 0 {
		return pick
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// restoreBase puts the base's version of path back in the worktree (removing a file the task
// created), through git so the mode comes back too.
func (t Task) restoreBase(ctx context.Context, path string) error {
	if _, ok := blobAt(ctx, t.Repo, t.Base, path); !ok {
		if _, err := t.git(ctx, nil, "rm", "--quiet", "--cached", "--ignore-unmatch", "--", path); err != nil {
			return err
		}
		if err := os.Remove(filepath.Join(t.Path, path)); err != nil && !os.IsNotExist(err) {
			return errs.Wrap(GitFailed, err, "Detail", err.Error())
		}
		return nil
	}
	_, err := t.git(ctx, nil, "checkout", "--quiet", t.Base, "--", path)
	return err
}
