package checkpoint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// Checkpoint is one snapshot of a workspace.
type Checkpoint struct {
	ID        int64  `json:"id"`
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId,omitempty"`
	Workspace string `json:"workspace"`
	// Reason says what the snapshot was taken before or after (a Reason* constant).
	Reason string `json:"reason"`
	// Detail names the tool call or the restored checkpoint.
	Detail    string    `json:"detail,omitempty"`
	Manifest  string    `json:"-"`
	Files     int       `json:"files"`
	Bytes     int64     `json:"bytes"`
	CreatedAt time.Time `json:"createdAt"`
}

// Why a snapshot was taken.
const (
	ReasonTurn          = "turn"           // before a turn starts
	ReasonBeforeTool    = "before_tool"    // before an approved write, edit or shell command
	ReasonAfterTool     = "after_tool"     // after it: what it changed, the shell's side effects too
	ReasonBeforeRestore = "before_restore" // the state a restore replaced: undo goes back here
	ReasonRestored      = "restored"       // the state a restore made
	ReasonTurnEnd       = "turn_end"       // when a turn ended: the turn's changes end here
	ReasonBeforeReview  = "before_review"  // the state a reverted hunk or file replaced
	ReasonReviewed      = "reviewed"       // the state the revert made
)

// Request names what a snapshot belongs to.
type Request struct {
	SessionID string
	TurnID    string
	Workspace string
	Reason    string
	Detail    string
}

// Snapshot records the workspace's files now. Only files changed since the last snapshot of
// the same workspace are read; a result identical to the last one is still a checkpoint of its
// own (it costs one row).
func (s *Store) Snapshot(req Request) (Checkpoint, error) {
	root, err := realRoot(req.Workspace)
	if err != nil {
		return Checkpoint{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.snapshotLocked(req, root)
	if err != nil {
		return Checkpoint{}, err
	}
	return c, s.pruneLocked()
}

func (s *Store) snapshotLocked(req Request, root string) (Checkpoint, error) {
	prev, err := s.previous(root)
	if err != nil {
		return Checkpoint{}, err
	}
	w, err := walk(root, s.opts, prev)
	if err != nil {
		return Checkpoint{}, walkErr(err, root, s.opts)
	}
	c := Checkpoint{SessionID: req.SessionID, TurnID: req.TurnID, Workspace: root, Reason: req.Reason, Detail: req.Detail,
		Files: len(w.entries), CreatedAt: w.began.UTC()}
	err = s.db.Transaction(func(tx *gorm.DB) error {
		if err := s.storeDirty(tx, root, &w); err != nil {
			return err
		}
		for _, e := range w.entries {
			c.Bytes += e.Size
		}
		raw, err := json.Marshal(w.entries)
		if err != nil {
			return errs.Wrap(errs.Internal, err)
		}
		if c.Manifest, err = putBlob(tx, raw); err != nil {
			return err
		}
		return storeErr(tx.Table("checkpoints").Create(&c).Error)
	})
	if err != nil {
		return Checkpoint{}, err
	}
	s.last[root] = scanned{entries: index(w.entries), began: w.began, rules: w.rules}
	s.manifests.put(c.Manifest, w.entries)
	return c, nil
}

// storeDirty reads every changed file once: its hash comes from the bytes stored, so a file
// written during the walk is recorded as it was read.
func (s *Store) storeDirty(tx *gorm.DB, root string, w *walked) error {
	for _, i := range w.dirty {
		e := &w.entries[i]
		p := filepath.Join(root, filepath.FromSlash(e.Path))
		if e.Size > s.opts.MaxFileSize {
			hash, n, err := hashFile(p)
			if err != nil {
				continue // gone since the walk: recorded without content, restored as absent
			}
			e.Hash, e.Size, e.Large = hash, n, true
			continue
		}
		content, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		hash, err := putBlob(tx, content)
		if err != nil {
			return err
		}
		e.Hash, e.Size = hash, int64(len(content))
	}
	w.entries = kept(w.entries)
	return nil
}

// kept drops regular files whose content could not be read: they are not in the snapshot.
func kept(entries []Entry) []Entry {
	out := entries[:0]
	for _, e := range entries {
		if e.Mode.IsRegular() && e.Hash == "" {
			continue
		}
		out = append(out, e)
	}
	return out
}

func index(entries []Entry) map[string]Entry {
	m := make(map[string]Entry, len(entries))
	for _, e := range entries {
		m[e.Path] = e
	}
	return m
}

// previous is the last snapshot of root: remembered, or read from the newest checkpoint.
func (s *Store) previous(root string) (scanned, error) {
	if p, ok := s.last[root]; ok {
		return p, nil
	}
	var c Checkpoint
	err := s.db.Table("checkpoints").Where("workspace = ?", root).Order("id DESC").Limit(1).Find(&c).Error
	if err != nil || c.ID == 0 {
		return scanned{}, storeErr(err)
	}
	entries, err := manifestEntries(s.db, c.Manifest)
	if err != nil {
		return scanned{}, nil // a damaged manifest only costs a full read
	}
	return scanned{entries: index(entries), began: c.CreatedAt}, nil
}

// manifestEntries reads a manifest.
func manifestEntries(db *gorm.DB, manifest string) ([]Entry, error) {
	raw, err := blob(db, manifest)
	if err != nil {
		return nil, err
	}
	var out []Entry
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Wrap(Missing, err, "Hash", manifest)
	}
	return out, nil
}

// realRoot is the workspace folder with its symbolic links followed, so one folder has one key.
func realRoot(ws string) (string, error) {
	abs, err := filepath.Abs(ws)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", errs.Wrap(errs.NoWorkspace, err, "Path", ws)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return "", errs.New(errs.NoWorkspace, "Path", ws)
	}
	return abs, nil
}

// Get reads one checkpoint.
func (s *Store) Get(id int64) (Checkpoint, error) {
	var c Checkpoint
	if err := s.db.Table("checkpoints").Where("id = ?", id).Find(&c).Error; err != nil {
		return c, storeErr(err)
	}
	if c.ID == 0 {
		return c, errs.New(errs.NotFound, "ID", id)
	}
	return c, nil
}

// List is a session's checkpoints, oldest first.
func (s *Store) List(sessionID string) ([]Checkpoint, error) {
	var out []Checkpoint
	err := s.db.Table("checkpoints").Where("session_id = ?", sessionID).Order("id").Find(&out).Error
	return out, storeErr(err)
}
