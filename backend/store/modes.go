package store

import (
	"encoding/json"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// SettingDefaultPermission is the default permission mode for new sessions (R-AUTH-1). Only the
// Settings page and `agentdesk settings set` write it.
const SettingDefaultPermission = "chat_defaults.permission_mode"

// EventPermissionSet records a session's permission change in its log.
const EventPermissionSet = "permission.set"

const emptyQueue = `{"items":[]}`

// Preference reads the stored interaction preference, folding retired spellings and failing
// closed on unknown ones (R-DATA-3).
func (s Session) Preference() mode.Decoded {
	return mode.DecodePreference(s.InteractionMode, s.ExecutionOverride)
}

// Permission reads the stored permission mode; ok is false when it was not recognized, in which
// case it reads as ask.
func (s Session) Permission() (p policy.PermissionMode, ok bool) {
	return policy.DecodePermission(s.PermissionMode)
}

// DefaultPermission is the decoded default permission mode: ask on a fresh data folder.
type DefaultPermission struct {
	Mode         policy.PermissionMode
	Raw          string
	Unrecognized bool
}

// GetDefaultPermission reads the default permission mode.
func (s *Store) GetDefaultPermission() (DefaultPermission, error) {
	d, err := defaultPermission(s.db)
	return d, storeErr(err)
}

func defaultPermission(tx *gorm.DB) (DefaultPermission, error) {
	var row Setting
	err := tx.Where("key = ?", SettingDefaultPermission).Take(&row).Error
	if err == gorm.ErrRecordNotFound {
		return DefaultPermission{Mode: policy.DefaultPermission}, nil
	}
	if err != nil {
		return DefaultPermission{}, err
	}
	p, ok := policy.DecodePermission(row.Value)
	return DefaultPermission{Mode: p, Raw: row.Value, Unrecognized: !ok}, nil
}

// SetDefaultPermission writes the default permission mode; the value must be canonical.
func (s *Store) SetDefaultPermission(p policy.PermissionMode) error {
	if _, err := policy.ParsePermission(string(p)); err != nil {
		return err
	}
	return s.SetSetting(SettingDefaultPermission, string(p))
}

// Configure sets a session's interaction preference: the columns and a mode.set event, together.
func (s *Store) Configure(id string, p mode.Preference) (Session, error) {
	if err := p.Validate(); err != nil {
		return Session{}, err
	}
	err := s.db.Transaction(func(tx *gorm.DB) error {
		return setPreference(tx, id, p)
	})
	if err != nil {
		return Session{}, storeErr(err)
	}
	return s.GetSession(id)
}

func setPreference(tx *gorm.DB, id string, p mode.Preference) error {
	res := tx.Model(&Session{}).Where("id = ?", id).Updates(map[string]any{
		"interaction_mode": string(p.Interaction), "execution_override": string(p.Override)})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	_, err := appendModeSet(tx, id, p)
	return err
}

func appendModeSet(tx *gorm.DB, id string, p mode.Preference) (Event, error) {
	entry := mode.NewModeSet(p)
	return appendEvent(tx, id, entry.Type, string(entry.Payload))
}

// SetPermission changes one session's permission mode; it never touches the default (R-AUTH-3).
func (s *Store) SetPermission(id string, p policy.PermissionMode) (Session, error) {
	if _, err := policy.ParsePermission(string(p)); err != nil {
		return Session{}, err
	}
	err := s.db.Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Session{}).Where("id = ?", id).Update("permission_mode", string(p))
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", id)
		}
		payload, _ := json.Marshal(map[string]string{"permission_mode": string(p)})
		_, err := appendEvent(tx, id, EventPermissionSet, string(payload))
		return err
	})
	if err != nil {
		return Session{}, storeErr(err)
	}
	return s.GetSession(id)
}

// ModeInForce folds the session's log (R-PLAN-1); a session with no mode.set event yet reads
// its columns.
func (s *Store) ModeInForce(id string) (mode.State, error) {
	sess, err := s.GetSession(id)
	if err != nil {
		return mode.State{}, err
	}
	var rows []Event
	if err := s.db.Where("session_id = ? AND type = ?", id, mode.EventModeSet).Order("seq").Find(&rows).Error; err != nil {
		return mode.State{}, storeErr(err)
	}
	log := make([]mode.LogEntry, len(rows))
	for i, r := range rows {
		log[i] = mode.LogEntry{Type: r.Type, Payload: []byte(r.Payload)}
	}
	return mode.Fold(sess.Preference().Preference, log), nil
}

// Queue reads a session's persisted turn-boundary queue (R-MODE-5).
func (s *Store) Queue(id string) (mode.Queue, error) {
	sess, err := s.GetSession(id)
	if err != nil {
		return mode.Queue{}, err
	}
	var q mode.Queue
	if err := json.Unmarshal([]byte(sess.ModeQueue), &q); err != nil {
		return mode.Queue{}, errs.Wrap(errs.StoreFailure, err)
	}
	return q, nil
}

// SaveQueue persists a session's queue, so queued switches survive a restart.
func (s *Store) SaveQueue(id string, q mode.Queue) error {
	body, err := json.Marshal(q)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	res := s.db.Model(&Session{}).Where("id = ?", id).Updates(map[string]any{"mode_queue": string(body), "updated_at": time.Now().UTC()})
	if res.Error == nil && res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	return storeErr(res.Error)
}
