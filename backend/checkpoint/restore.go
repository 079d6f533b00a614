package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"

	"agentdesk/backend/errs"
)

// Change is one file that differs between two states of a workspace.
type Change struct {
	Path string `json:"path"`
	// Action is what going from the first state to the second does to the file.
	Action string `json:"action"`
	From   *Entry `json:"from,omitempty"`
	To     *Entry `json:"to,omitempty"`
	// Unrestorable: the second state's content was recorded by hash only (too large to keep).
	Unrestorable bool `json:"unrestorable,omitempty"`
}

// Actions of a Change.
const (
	ActionCreate = "create"
	ActionModify = "modify"
	ActionDelete = "delete"
)

// compare lists what turns the state from into the state to, by path.
func compare(from, to []Entry) []Change {
	old, now := index(from), index(to)
	var out []Change
	for _, e := range to {
		e := e
		switch o, ok := old[e.Path]; {
		case !ok:
			out = append(out, Change{Path: e.Path, Action: ActionCreate, To: &e, Unrestorable: e.Large})
		case !o.same(e):
			out = append(out, Change{Path: e.Path, Action: ActionModify, From: &o, To: &e, Unrestorable: e.Large})
		}
	}
	for _, e := range from {
		e := e
		if _, ok := now[e.Path]; !ok {
			out = append(out, Change{Path: e.Path, Action: ActionDelete, From: &e})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Plan is what restoring a checkpoint would do to the workspace as it is now: shown before the
// person confirms, so no file is deleted or overwritten unseen.
type Plan struct {
	Checkpoint Checkpoint `json:"checkpoint"`
	Changes    []Change   `json:"changes"`
	// Deletes lists the files the restore would remove (they were not in the checkpoint).
	Deletes []string `json:"deletes"`
	// Unrestorable lists files the checkpoint recorded by hash only: the restore leaves them.
	Unrestorable []string `json:"unrestorable"`
}

// RestoreOptions narrow a restore.
type RestoreOptions struct {
	// Paths limits the restore to these files (workspace-relative, slash-separated); all if empty.
	Paths []string
	// ConfirmDeletes is the person's yes to the Plan's Deletes; without it a restore that would
	// delete anything is refused with NeedsConfirmation.
	ConfirmDeletes bool
	// Seen, when set, are the deletes the person was shown: a file that would be deleted and is
	// not among them (created since the preview) refuses the restore, confirmed or not.
	Seen []string
}

// Restored is a finished restore: Undo is the checkpoint of the state it replaced.
type Restored struct {
	Undo    Checkpoint `json:"undo"`
	Result  Checkpoint `json:"result"`
	Changed []Change   `json:"changed"`
}

// PlanRestore compares the workspace now with checkpoint id.
func (s *Store) PlanRestore(id int64, opts RestoreOptions) (Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.planLocked(id, opts)
}

func (s *Store) planLocked(id int64, opts RestoreOptions) (Plan, error) {
	c, err := s.Get(id)
	if err != nil {
		return Plan{}, err
	}
	target, err := s.entries(c)
	if err != nil {
		return Plan{}, err
	}
	now, err := s.current(c.Workspace)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Checkpoint: c, Deletes: []string{}, Unrestorable: []string{}}
	for _, ch := range compare(now, target) {
		if len(opts.Paths) > 0 && !slices.Contains(opts.Paths, ch.Path) {
			continue
		}
		switch {
		case ch.Unrestorable:
			p.Unrestorable = append(p.Unrestorable, ch.Path)
			continue
		case ch.Action == ActionDelete:
			p.Deletes = append(p.Deletes, ch.Path)
		}
		p.Changes = append(p.Changes, ch)
	}
	return p, nil
}

// current is the workspace's state now, hashed but not stored.
func (s *Store) current(root string) ([]Entry, error) {
	prev, err := s.previous(root)
	if err != nil {
		return nil, err
	}
	w, err := walk(root, s.opts, prev)
	if err != nil {
		return nil, walkErr(err, root, s.opts)
	}
	for _, i := range w.dirty {
		e := &w.entries[i]
		if e.Hash, e.Size, err = hashFile(root + string(os.PathSeparator) + e.Path); err != nil {
			e.Hash = ""
		}
		e.Large = e.Size > s.opts.MaxFileSize
	}
	return kept(w.entries), nil
}

// Restore puts the workspace back to checkpoint id. It first records the state it replaces
// (Undo: restoring that checkpoint undoes this restore), and records the result afterwards.
// Every file operation goes through os.Root at the workspace: nothing outside it is touched.
func (s *Store) Restore(id int64, req Request, opts RestoreOptions) (Restored, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	plan, err := s.planLocked(id, opts)
	if err != nil {
		return Restored{}, err
	}
	if err := confirmed(plan, opts); err != nil {
		return Restored{}, err
	}
	if err := s.verify(plan); err != nil {
		return Restored{}, err // a damaged store restores nothing, not half the files
	}
	req.Workspace = plan.Checkpoint.Workspace
	undo, err := s.snapshotLocked(withReason(req, ReasonBeforeRestore), plan.Checkpoint.Workspace)
	if err != nil {
		return Restored{}, err
	}
	if err := s.apply(plan); err != nil {
		return Restored{Undo: undo}, err
	}
	delete(s.last, plan.Checkpoint.Workspace) // the disk changed under the cache: read it afresh
	result, err := s.snapshotLocked(withReason(req, ReasonRestored), plan.Checkpoint.Workspace)
	if err != nil {
		return Restored{Undo: undo}, err
	}
	return Restored{Undo: undo, Result: result, Changed: plan.Changes}, s.pruneLocked()
}

// confirmed checks the person's yes to every delete the restore would do.
func confirmed(plan Plan, opts RestoreOptions) error {
	if len(plan.Deletes) == 0 {
		return nil
	}
	unseen := 0
	for _, d := range plan.Deletes {
		if opts.Seen != nil && !slices.Contains(opts.Seen, d) {
			unseen++
		}
	}
	if !opts.ConfirmDeletes || unseen > 0 {
		return errs.New(NeedsConfirmation, "Count", len(plan.Deletes))
	}
	return nil
}

// verify reads every content the restore needs before any file is touched.
func (s *Store) verify(plan Plan) error {
	for _, ch := range plan.Changes {
		if ch.To != nil && ch.To.Mode.IsRegular() {
			if _, err := blob(s.db, ch.To.Hash); err != nil {
				return err
			}
		}
	}
	return nil
}

func withReason(req Request, reason string) Request {
	req.Reason = reason
	return req
}

func (s *Store) apply(plan Plan) error {
	root, err := os.OpenRoot(plan.Checkpoint.Workspace)
	if err != nil {
		return errs.Wrap(RestoreFailed, err, "Path", plan.Checkpoint.Workspace)
	}
	defer root.Close()
	for _, ch := range plan.Changes {
		if err := s.applyOne(root, ch); err != nil {
			return errs.Wrap(RestoreFailed, err, "Path", ch.Path)
		}
	}
	return nil
}

func (s *Store) applyOne(root *os.Root, ch Change) error {
	if ch.Action == ActionDelete {
		if err := root.Remove(ch.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	e := ch.To
	if dir := path.Dir(e.Path); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if e.Mode&fs.ModeSymlink != 0 {
		if err := root.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return root.Symlink(e.Link, e.Path)
	}
	content, err := blob(s.db, e.Hash)
	if err != nil {
		return err
	}
	return writeReplacing(root, e.Path, content, e.Mode.Perm())
}

// writeReplacing writes next to the file and renames over it, so a symbolic link in the way is
// replaced, not followed, and a reader never sees half a file.
func writeReplacing(root *os.Root, rel string, content []byte, perm fs.FileMode) error {
	tmp := path.Join(path.Dir(rel), "."+path.Base(rel)+".agentdesk-restore")
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Chmod(tmp, perm)
	}
	if err == nil {
		err = root.Rename(tmp, rel)
	}
	if err != nil {
		root.Remove(tmp)
	}
	return err
}
