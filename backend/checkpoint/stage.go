package checkpoint

import (
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// Staged is a write or an edit held back for the person's review (Settings: review before
// apply): the file as it was when the agent asked (Base, "" when it did not exist) and as the
// agent would have it (Proposed), both kept as blobs until the checkpoints around them are
// pruned, so what was proposed and what was applied can be told apart later.
type Staged struct {
	ID        int64     `json:"id"`
	SessionID string    `json:"sessionId"`
	TurnID    string    `json:"turnId"`
	CallID    string    `json:"callId"`
	Path      string    `json:"path"`
	Base      string    `json:"base"`
	Proposed  string    `json:"proposed"`
	CreatedAt time.Time `json:"createdAt"`
}

// Stage keeps a proposed change; base is nil for a file that does not exist yet.
func (s *Store) Stage(st Staged, base, proposed []byte) (Staged, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st.ID, st.CreatedAt = 0, time.Now().UTC()
	err := s.db.Transaction(func(tx *gorm.DB) error {
		var err error
		if base != nil {
			if st.Base, err = putBlob(tx, base); err != nil {
				return err
			}
		}
		if st.Proposed, err = putBlob(tx, proposed); err != nil {
			return err
		}
		return storeErr(tx.Table("staged").Create(&st).Error)
	})
	return st, err
}

// StagedChange reads a staged change back with its two contents (base nil when the file did
// not exist).
func (s *Store) StagedChange(id int64) (Staged, []byte, []byte, error) {
	var st Staged
	if err := s.db.Table("staged").Where("id = ?", id).Find(&st).Error; err != nil {
		return st, nil, nil, storeErr(err)
	}
	if st.ID == 0 {
		return st, nil, nil, errs.New(errs.NotFound, "ID", id)
	}
	var base []byte
	if st.Base != "" {
		var err error
		if base, err = blob(s.db, st.Base); err != nil {
			return st, nil, nil, err
		}
	}
	proposed, err := blob(s.db, st.Proposed)
	return st, base, proposed, err
}
