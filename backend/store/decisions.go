package store

import (
	"errors"
	"slices"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// Decision statuses. A row is pending until exactly one resolution moves it to one of the
// others; the terminal ones mirror the outcomes of decision.resolved (R-DEC-3).
const (
	DecisionPending     = "pending"
	DecisionAnswered    = "answered"
	DecisionRejected    = "rejected"
	DecisionTimedOut    = "timed_out"
	DecisionCancelled   = "cancelled"
	DecisionInterrupted = "interrupted"
)

// decisionEnds lists the statuses a pending decision may move to.
var decisionEnds = []string{DecisionAnswered, DecisionRejected, DecisionTimedOut, DecisionCancelled, DecisionInterrupted}

// DecisionRow is a persisted question, approval or plan review (R-DEC-6). Payload and Answer
// hold JSON; FIFO order within a session is insertion order (rowid).
type DecisionRow struct {
	ID         string `gorm:"primaryKey"`
	SessionID  string
	TurnID     string
	Kind       string
	Payload    string
	Status     string
	Answer     string
	CreatedAt  time.Time
	Deadline   time.Time
	ResolvedAt *time.Time
}

// TableName is the table created by migration 3.
func (DecisionRow) TableName() string { return "decisions" }

// CreateDecision inserts a pending decision. The caller supplies the id and the times, so the
// row and what the registry announces agree to the nanosecond.
func (s *Store) CreateDecision(row DecisionRow) error {
	if row.ID == "" {
		return errs.New(errs.InvalidInput, "Field", "id")
	}
	if row.CreatedAt.IsZero() {
		row.CreatedAt = time.Now().UTC()
	}
	row.Status, row.ResolvedAt = DecisionPending, nil
	row.Payload = orEmptyObject(row.Payload)
	row.Answer = orEmptyObject(row.Answer)
	err := s.write(func(tx *gorm.DB) error {
		err := tx.Create(&row).Error
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return errs.Wrap(errs.NotFound, err, "ID", row.SessionID)
		}
		return err
	})
	return err
}

// ResolveDecision moves a pending decision to status with its answer. It reports false, and
// changes nothing, when the row is no longer pending: the database keeps the first resolution
// even if two resolvers race past the registry. A missing id is NOT_FOUND.
func (s *Store) ResolveDecision(id, status, answerJSON string) (bool, error) {
	if !slices.Contains(decisionEnds, status) {
		return false, errs.Invalid("status", status, decisionEnds)
	}
	var moved bool
	err := s.write(func(tx *gorm.DB) error {
		res := tx.Model(&DecisionRow{}).Where("id = ? AND status = ?", id, DecisionPending).
			Updates(map[string]any{"status": status, "answer": orEmptyObject(answerJSON), "resolved_at": time.Now().UTC()})
		if res.Error != nil {
			return res.Error
		}
		if moved = res.RowsAffected == 1; moved {
			return nil
		}
		var n int64
		if err := tx.Model(&DecisionRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			return errs.New(errs.NotFound, "ID", id)
		}
		return nil
	})
	return moved, err
}

// PendingDecisions lists a session's pending decisions, oldest first: the head is the one the
// composer shows.
func (s *Store) PendingDecisions(sessionID string) ([]DecisionRow, error) {
	var out []DecisionRow
	err := s.db.Where("session_id = ? AND status = ?", sessionID, DecisionPending).Order("rowid").Find(&out).Error
	return out, s.fail(err)
}

// AllPending lists every pending decision of every session, oldest first.
func (s *Store) AllPending() ([]DecisionRow, error) {
	var out []DecisionRow
	err := s.db.Where("status = ?", DecisionPending).Order("rowid").Find(&out).Error
	return out, s.fail(err)
}

// Decision returns one decision or NOT_FOUND.
func (s *Store) Decision(id string) (DecisionRow, error) {
	var out DecisionRow
	err := s.db.Where("id = ?", id).Take(&out).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return out, errs.New(errs.NotFound, "ID", id)
	}
	return out, s.fail(err)
}

// InterruptUnfinished runs once at app start, before anything asks or starts a turn: a
// running turn whose process is gone can no longer finish, so it and its pending decisions
// become interrupted, together or not at all (R-DEC-6). Turns of a live process (an
// `agentdesk run` or `acp` beside the app) and their decisions are left alone.
//
// A damaged database is read-only: nothing can be marked, and nothing can run on it either.
func (s *Store) InterruptUnfinished() (turns, decisions int, err error) {
	if s.Damage() != nil {
		return 0, 0, nil
	}
	now := time.Now().UTC()
	err = s.write(func(tx *gorm.DB) error {
		var running []Turn
		if err := tx.Where("status = ?", TurnRunning).Find(&running).Error; err != nil {
			return err
		}
		// The empty string stands in for "no live turn": SQL's NOT IN () would match nothing.
		live := []string{""}
		for _, t := range running {
			if ownerAlive(t.Owner, t.CreatedAt) {
				live = append(live, t.ID)
			}
		}
		t := tx.Model(&Turn{}).Where("status = ? AND id NOT IN ?", TurnRunning, live).
			Updates(map[string]any{"status": TurnInterrupted, "ended_at": now})
		if t.Error != nil {
			return t.Error
		}
		d := tx.Model(&DecisionRow{}).Where("status = ? AND (turn_id = '' OR turn_id NOT IN ?)", DecisionPending, live).
			Updates(map[string]any{"status": DecisionInterrupted, "resolved_at": now})
		if d.Error != nil {
			return d.Error
		}
		turns, decisions = int(t.RowsAffected), int(d.RowsAffected)
		for _, r := range running {
			if !slices.Contains(live, r.ID) {
				if err := clearRunning(tx, r.SessionID, r.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return turns, decisions, nil
}

func orEmptyObject(js string) string {
	if js == "" {
		return "{}"
	}
	return js
}
