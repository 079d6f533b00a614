package store

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// ForkSession copies a session, its log and its queue under a new id. Because the mode in force
// is the fold of the log, the fork is in the same mode with no extra state (R-PLAN-1).
func (s *Store) ForkSession(id, title string) (Session, error) {
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
	fork.CreatedAt, fork.UpdatedAt = now, now
	err = s.db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&fork).Error; err != nil {
			return err
		}
		return tx.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at)
			SELECT ?, seq, type, payload, created_at FROM events WHERE session_id = ? ORDER BY seq`, fork.ID, id).Error
	})
	if err != nil {
		return Session{}, storeErr(err)
	}
	return s.GetSession(fork.ID)
}
