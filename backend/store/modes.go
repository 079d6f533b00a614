package store

import (
	"gorm.io/gorm"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// SettingDefaultPermission is the default permission mode for new sessions (R-AUTH-1). Only the
// Settings page and `agentdesk settings set` write it.
const SettingDefaultPermission = "chat_defaults.permission_mode"

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
	return d, s.fail(err)
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
	if err := s.write(func(tx *gorm.DB) error { return setPreference(tx, id, p) }); err != nil {
		return Session{}, err
	}
	return s.GetSession(id)
}

func setPreference(tx *gorm.DB, id string, p mode.Preference) error {
	if err := updateSession(tx, id, map[string]any{
		"interaction_mode": string(p.Interaction), "execution_override": string(p.Override)}); err != nil {
		return err
	}
	_, err := appendEvent(tx, id, eventlog.NewModeSet(p))
	return err
}

// SetPermission changes one session's permission mode; it never touches the default (R-AUTH-3).
func (s *Store) SetPermission(id string, p policy.PermissionMode) (Session, error) {
	if _, err := policy.ParsePermission(string(p)); err != nil {
		return Session{}, err
	}
	err := s.write(func(tx *gorm.DB) error {
		if err := updateSession(tx, id, map[string]any{"permission_mode": string(p)}); err != nil {
			return err
		}
		_, err := appendEvent(tx, id, eventlog.PermissionSet{PermissionMode: string(p)})
		return err
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(id)
}

// ModeInForce is the fold of the session's log (R-PLAN-1), kept in its row by every append; a
// session with no mode.set event yet reads its columns.
func (s *Store) ModeInForce(id string) (mode.State, error) {
	st, err := modeInForce(s.db, id)
	return st, s.fail(err)
}

func modeInForce(tx *gorm.DB, id string) (mode.State, error) {
	var sess Session
	if err := tx.Where("id = ?", id).Take(&sess).Error; err != nil {
		return mode.State{}, notFound(err, id)
	}
	return sess.InForce(), nil
}

// modeLog is the session's mode.set entries, for the log's own fold to read.
func modeLog(tx *gorm.DB, id string) ([]eventlog.Entry, error) {
	var rows []Event
	if err := tx.Where("session_id = ? AND type = ?", id, eventlog.TypeModeSet).Order("seq").Find(&rows).Error; err != nil {
		return nil, err
	}
	log := make([]eventlog.Entry, len(rows))
	for i, r := range rows {
		log[i] = eventlog.Entry{Seq: r.Seq, Type: r.Type, Payload: []byte(r.Payload)}
	}
	return log, nil
}

// LeavePlan is an approved plan's exit (R-PLAN-2): it reads the last preference that was not
// plan from the log and sets it, in one unit of work, and returns it.
func (s *Store) LeavePlan(id string) (mode.Preference, error) {
	var prev mode.Preference
	err := s.write(func(tx *gorm.DB) error {
		log, err := modeLog(tx, id)
		if err != nil {
			return err
		}
		prev = eventlog.LastNonPlan(log)
		if err := updateSession(tx, id, map[string]any{
			"interaction_mode": string(prev.Interaction), "execution_override": string(prev.Override)}); err != nil {
			return err
		}
		set := eventlog.NewModeSet(prev)
		set.Reason = mode.ReasonPlanApproved
		_, err = appendEvent(tx, id, set)
		return err
	})
	return prev, err
}
