package store

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// Turn statuses.
const (
	TurnRunning     = "running"
	TurnDone        = "done"
	TurnFailed      = "failed"
	TurnCancelled   = "cancelled"
	TurnInterrupted = "interrupted"
)

// Turn is one user message and everything the agent did until it stopped. It records the
// preference it ran under and the execution mode resolved for it, with the router's reason.
type Turn struct {
	ID                string `gorm:"primaryKey"`
	SessionID         string
	Seq               int64
	Prompt            string
	InteractionMode   string
	ExecutionOverride string
	Temporary         bool
	ExecutionMode     string
	ReasonKey         string
	ReasonArgs        string
	Status            string
	Error             string
	Owner             string
	CreatedAt         time.Time
	EndedAt           *time.Time
}

// StartTurn records a running turn with its resolved execution mode. A temporary preference is
// stored on the turn only, never on the session (R-MODE-6).
func (s *Store) StartTurn(sessionID, prompt string, p mode.Preference, temporary bool, d mode.Decision) (Turn, error) {
	args, err := json.Marshal(d.ReasonArgs)
	if err != nil {
		return Turn{}, errs.Wrap(errs.Internal, err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Turn{}, errs.Wrap(errs.Internal, err)
	}
	t := Turn{ID: id.String(), SessionID: sessionID, Prompt: prompt, InteractionMode: string(p.Interaction),
		ExecutionOverride: string(p.Override), Temporary: temporary, ExecutionMode: string(d.Mode),
		ReasonKey: d.ReasonKey, ReasonArgs: string(args), Status: TurnRunning, Owner: s.owner}
	err = s.db.Transaction(func(tx *gorm.DB) error {
		var last int64
		if err := tx.Model(&Turn{}).Where("session_id = ?", sessionID).Select("COALESCE(MAX(seq), 0)").Scan(&last).Error; err != nil {
			return err
		}
		t.Seq = last + 1
		return tx.Create(&t).Error
	})
	if err != nil {
		return Turn{}, storeErr(err)
	}
	return t, nil
}

// EndTurn records how a running turn ended.
func (s *Store) EndTurn(id, status, failure string) error {
	now := time.Now().UTC()
	res := s.db.Model(&Turn{}).Where("id = ? AND status = ?", id, TurnRunning).
		Updates(map[string]any{"status": status, "error": failure, "ended_at": now})
	if res.Error == nil && res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	return storeErr(res.Error)
}

// Turns lists a session's turns in order.
func (s *Store) Turns(sessionID string) ([]Turn, error) {
	var out []Turn
	err := s.db.Where("session_id = ?", sessionID).Order("seq").Find(&out).Error
	return out, storeErr(err)
}
