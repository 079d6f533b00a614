package store

import (
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// ForkSession copies a session, its log and its queue under a new id, as one unit of work. Because the mode in force
// is the fold of the log, the fork is in the same mode with no extra state (R-PLAN-1).
func (s *Store) ForkSession(id, title string) (Session, error) { return s.forkSession(id, title, 0) }

// ForkSessionBefore copies a session with its log up to (not including) event before: the
// conversation as it stood then (restoring a checkpoint's conversation). The queue belongs to
// the present and stays behind.
func (s *Store) ForkSessionBefore(id, title string, before int64) (Session, error) {
	if before < 1 {
		return Session{}, errs.Invalid("before", strconv.FormatInt(before, 10), []string{"1…"})
	}
	return s.forkSession(id, title, before)
}

// forkSession copies the log before event before; 0 copies all of it, and the queue.
func (s *Store) forkSession(id, title string, before int64) (Session, error) {
	src, err := s.GetSession(id)
	if err != nil {
		return Session{}, err
	}
	newID, err := uuid.NewV7()
	if err != nil {
		return Session{}, errs.Wrap(errs.Internal, err)
	}
	fork := src
	fork.ID = newID.String()
	if t := strings.TrimSpace(title); t != "" {
		fork.Title = t
	}
	now := time.Now().UTC()
	fork.CreatedAt, fork.UpdatedAt, fork.TurnSeq = now, now, 0 // turns stay with their session
	var last int64
	err = s.write(func(tx *gorm.DB) error {
		var src Session
		if err := tx.Where("id = ?", id).Take(&src).Error; err != nil {
			return notFound(err, id)
		}
		row := fork
		row.EventSeq, last = src.EventSeq, src.EventSeq
		if before > 0 {
			row.EventSeq, last = min(src.EventSeq, before-1), before-1
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		if err := tx.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at)
			SELECT ?, seq, type, payload, created_at FROM events WHERE session_id = ? AND seq <= ? ORDER BY seq`,
			fork.ID, id, last).Error; err != nil {
			return err
		}
		if before > 0 {
			return nil
		}
		return tx.Exec(`INSERT INTO queue_items (session_id, kind, interaction_mode, execution_override, message_id, created_at)
			SELECT ?, kind, interaction_mode, execution_override, message_id, created_at FROM queue_items
			WHERE session_id = ? ORDER BY id`, fork.ID, id).Error
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(fork.ID)
}
