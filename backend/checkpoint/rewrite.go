package checkpoint

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"

	"agentdesk/backend/errs"
)

// File is one file of a checkpoint: its entry, and its content where the store holds it (a
// regular file not too large to keep). Found is false when the checkpoint has no such file.
type File struct {
	Entry   Entry
	Content []byte
	Found   bool
}

// FileAt reads one file of checkpoint id.
func (s *Store) FileAt(id int64, rel string) (File, error) {
	c, err := s.Get(id)
	if err != nil {
		return File{}, err
	}
	entries, err := s.entries(c)
	if err != nil {
		return File{}, err
	}
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.Path == rel })
	if i < 0 {
		return File{}, nil
	}
	f := File{Entry: entries[i], Found: true}
	if f.Entry.Mode.IsRegular() && !f.Entry.Large {
		if f.Content, err = blob(s.db, f.Entry.Hash); err != nil {
			return File{}, err
		}
	}
	return f, nil
}

// Entries lists the files of checkpoint id.
func (s *Store) Entries(id int64) ([]Entry, error) {
	c, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	e, err := s.entries(c)
	return slices.Clone(e), err
}

// Rewrite replaces the content of one regular file of the workspace with what change makes of
// its current content, between two checkpoints: Undo (the state before, so the rewrite can be
// undone like a restore) and Result. The file keeps its permission bits; it is written through
// os.Root at the workspace, by a rename over it. change sees nil for a file that does not exist
// and may refuse with an error, in which case nothing is recorded or written.
func (s *Store) Rewrite(req Request, rel string, change func(current []byte, exists bool) ([]byte, error)) (Restored, error) {
	root, err := realRoot(req.Workspace)
	if err != nil {
		return Restored{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dir, err := os.OpenRoot(root)
	if err != nil {
		return Restored{}, storeErr(err)
	}
	defer dir.Close()
	current, perm, exists, err := readRegular(dir, rel)
	if err != nil {
		return Restored{}, err
	}
	next, err := change(current, exists)
	if err != nil {
		return Restored{}, err
	}
	req.Workspace = root
	undo, err := s.snapshotLocked(withReason(req, ReasonBeforeReview), root)
	if err != nil {
		return Restored{}, err
	}
	if err := writeReplacing(dir, rel, next, perm); err != nil {
		return Restored{Undo: undo}, errs.Wrap(RestoreFailed, err, "Path", rel)
	}
	delete(s.last, root)
	result, err := s.snapshotLocked(withReason(req, ReasonReviewed), root)
	if err != nil {
		return Restored{Undo: undo}, err
	}
	action := ActionModify
	if !exists {
		action = ActionCreate
	}
	return Restored{Undo: undo, Result: result, Changed: []Change{{Path: rel, Action: action}}}, s.pruneLocked()
}

// readRegular reads a regular file below dir with its permission bits; a missing one is not an
// error (exists false, the new-file mode), anything else that is not a regular file is.
func readRegular(dir *os.Root, rel string) ([]byte, fs.FileMode, bool, error) {
	info, err := dir.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, false, nil
	}
	if err != nil {
		return nil, 0, false, errs.Wrap(RestoreFailed, err, "Path", rel)
	}
	if !info.Mode().IsRegular() {
		return nil, 0, false, errs.New(NotAFile, "Path", rel)
	}
	f, err := dir.Open(rel)
	if err != nil {
		return nil, 0, false, errs.Wrap(RestoreFailed, err, "Path", rel)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, false, errs.Wrap(RestoreFailed, err, "Path", rel)
	}
	return b, info.Mode().Perm(), true, nil
}
