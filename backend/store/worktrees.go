package store

import (
	"encoding/json"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agentdesk/backend/errs"
)

// TaskWorktree is where a session that runs in a worktree of its own has it (backend/worktree),
// and, once removed, what was kept of its work.
type TaskWorktree struct {
	SessionID string
	Repo      string // the person's work tree
	Common    string // the repository's shared git folder
	Path      string // the worktree's folder
	GitDir    string // its own git folder
	Branch    string
	Base      string
	KeptRef   string   // "" when nothing was kept
	KeptFiles []string // the files whose change had not reached the person
	Removed   bool
	// Unapplied counts the files whose change has not reached the person's folder or branch,
	// as last counted (session.Service.CountUnapplied).
	Unapplied int
	CreatedAt time.Time
}

type taskWorktreeRow struct {
	SessionID string `gorm:"primaryKey"`
	Repo      string
	Common    string
	Path      string
	GitDir    string
	Branch    string
	Base      string
	KeptRef   string
	KeptFiles string
	Removed   bool
	Unapplied int
	CreatedAt time.Time
}

func (taskWorktreeRow) TableName() string { return "task_worktrees" }

// MoveToWorktree makes a new session run in its worktree: its workspace becomes the worktree's
// folder and the worktree is recorded, in one unit of work.
func (s *Store) MoveToWorktree(w TaskWorktree) error {
	row, err := w.row()
	if err != nil {
		return err
	}
	return s.write(func(tx *gorm.DB) error {
		if err := updateSession(tx, w.SessionID, map[string]any{"workspace": w.Path}); err != nil {
			return err
		}
		return tx.Create(&row).Error
	})
}

func (w TaskWorktree) row() (taskWorktreeRow, error) {
	files, err := json.Marshal(nonNil(w.KeptFiles))
	if err != nil {
		return taskWorktreeRow{}, errs.Wrap(errs.Internal, err)
	}
	if w.CreatedAt.IsZero() {
		w.CreatedAt = time.Now().UTC()
	}
	return taskWorktreeRow{SessionID: w.SessionID, Repo: w.Repo, Common: w.Common, Path: w.Path, GitDir: w.GitDir,
		Branch: w.Branch, Base: w.Base, KeptRef: w.KeptRef, KeptFiles: string(files), Removed: w.Removed, Unapplied: w.Unapplied, CreatedAt: w.CreatedAt}, nil
}

// SetTaskWorktree records (or updates) a session's worktree.
func (s *Store) SetTaskWorktree(w TaskWorktree) error {
	row, err := w.row()
	if err != nil {
		return err
	}
	err = s.write(func(tx *gorm.DB) error {
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&row).Error
	})
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return errs.Wrap(errs.NotFound, err, "ID", w.SessionID)
	}
	return err
}

// TaskWorktree is the session's worktree; ok is false for a session in the person's own folder.
func (s *Store) TaskWorktree(sessionID string) (w TaskWorktree, ok bool, err error) {
	var row taskWorktreeRow
	err = s.db.Where("session_id = ?", sessionID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return TaskWorktree{}, false, nil
	}
	if err != nil {
		return TaskWorktree{}, false, storeErr(err)
	}
	return row.view(), true, nil
}

// TaskWorktrees lists every recorded worktree of the repository whose work tree is repo ("" for
// all), oldest first.
func (s *Store) TaskWorktrees(repo string) ([]TaskWorktree, error) {
	var rows []taskWorktreeRow
	q := s.db.Order("created_at")
	if repo != "" {
		q = q.Where("repo = ?", repo)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, storeErr(err)
	}
	out := make([]TaskWorktree, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.view())
	}
	return out, nil
}

func (r taskWorktreeRow) view() TaskWorktree {
	w := TaskWorktree{SessionID: r.SessionID, Repo: r.Repo, Common: r.Common, Path: r.Path, GitDir: r.GitDir, Branch: r.Branch,
		Base: r.Base, KeptRef: r.KeptRef, Removed: r.Removed, Unapplied: r.Unapplied, CreatedAt: r.CreatedAt}
	// A record is AgentDesk's own: an unreadable list is shown as empty, the ref still holds it.
	_ = json.Unmarshal([]byte(r.KeptFiles), &w.KeptFiles)
	return w
}

// SetUnapplied records how many files of the session's worktree hold a change that has not
// reached the person; changed is false when the count was already n (or the session has no
// worktree), so a caller tells the windows only about a change.
func (s *Store) SetUnapplied(sessionID string, n int) (changed bool, err error) {
	err = s.write(func(tx *gorm.DB) error {
		res := tx.Model(&taskWorktreeRow{}).Where("session_id = ? AND unapplied <> ?", sessionID, n).Update("unapplied", n)
		changed = res.RowsAffected > 0
		return res.Error
	})
	return changed, storeErr(err)
}

// WorktreeTask is a session that runs in a worktree of its own that is still there, as the
// sidebar lists it.
type WorktreeTask struct {
	SessionID   string
	Title       string
	Repo        string
	Branch      string
	Unapplied   int
	RunningTurn string
	UpdatedAt   time.Time
}

// WorktreeTasks lists the sessions whose worktree is still there, by repository and, in each,
// most recently active first. It reads the worktree records and each one's session by its key,
// never the whole session list.
func (s *Store) WorktreeTasks() ([]WorktreeTask, error) {
	out := []WorktreeTask{}
	err := s.db.Table("task_worktrees AS w").
		Select("w.session_id, s.title, w.repo, w.branch, w.unapplied, s.running_turn, s.updated_at").
		Joins("JOIN sessions AS s ON s.id = w.session_id").
		Where("w.removed = 0").
		Order("w.repo, s.updated_at DESC, w.session_id").
		Scan(&out).Error
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

// RunningWorkspaces lists the workspace of every session with a turn running.
func (s *Store) RunningWorkspaces() ([]string, error) {
	var out []string
	err := s.db.Model(&Session{}).Where("running_turn <> ''").Pluck("workspace", &out).Error
	return out, storeErr(err)
}

// SettingIsolation decides when a new task in a git repository runs in a worktree of its own:
// "busy" (when another task runs in the same repository), "always" or "never".
const SettingIsolation = "worktree.isolation"

// LeaveWorktree makes a session run in folder again, forgetting its worktree record, in one unit
// of work: the handoff of a task back to the person's folder.
func (s *Store) LeaveWorktree(sessionID, folder string) error {
	return s.write(func(tx *gorm.DB) error {
		if err := updateSession(tx, sessionID, map[string]any{"workspace": folder}); err != nil {
			return err
		}
		return tx.Where("session_id = ?", sessionID).Delete(&taskWorktreeRow{}).Error
	})
}
