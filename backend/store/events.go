package store

import (
	"encoding/json"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// Event is one entry of a session's append-only log.
type Event struct {
	ID        int64 `gorm:"primaryKey"`
	SessionID string
	Seq       int64
	Type      string
	Payload   string
	CreatedAt time.Time
}

// AppendEvent adds an event at the end of a session's log and touches the session, in one
// transaction.
func (s *Store) AppendEvent(sessionID, typ string, payload any) (Event, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return Event{}, errs.Wrap(errs.InvalidInput, err, "Field", "payload")
	}
	var ev Event
	err = s.db.Transaction(func(tx *gorm.DB) error {
		var err error
		ev, err = appendEvent(tx, sessionID, typ, string(body))
		return err
	})
	return ev, storeErr(err)
}

func appendEvent(tx *gorm.DB, sessionID, typ, payload string) (Event, error) {
	now := time.Now().UTC()
	res := tx.Model(&Session{}).Where("id = ?", sessionID).Update("updated_at", now)
	if res.Error != nil {
		return Event{}, res.Error
	}
	if res.RowsAffected == 0 {
		return Event{}, errs.New(errs.NotFound, "ID", sessionID)
	}
	var last int64
	if err := tx.Model(&Event{}).Where("session_id = ?", sessionID).Select("COALESCE(MAX(seq), 0)").Scan(&last).Error; err != nil {
		return Event{}, err
	}
	ev := Event{SessionID: sessionID, Seq: last + 1, Type: typ, Payload: payload, CreatedAt: now}
	return ev, tx.Create(&ev).Error
}

// Events returns a session's log in order.
func (s *Store) Events(sessionID string) ([]Event, error) {
	var out []Event
	err := s.db.Where("session_id = ?", sessionID).Order("seq").Find(&out).Error
	return out, storeErr(err)
}
