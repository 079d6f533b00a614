package store

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// Session is one conversation with the agent over a workspace folder.
// Mode and permission columns hold what was stored, verbatim; read them through Preference and
// Permission, which fold retired spellings and fail closed on anything else.
type Session struct {
	ID                string `gorm:"primaryKey"`
	Title             string
	Workspace         string
	InteractionMode   string
	ExecutionOverride string
	PermissionMode    string
	ExternalAgent     string
	// EventSeq and TurnSeq are the numbers of the session's last event and last turn: the
	// counters the next ones are numbered from, inside their own transaction.
	EventSeq  int64
	TurnSeq   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewSession is what a caller supplies to create a session. A nil Preference means plain Smart;
// a nil Permission means the default in force at create time (R-AUTH-2). ExternalAgent, when
// set, is the command line of the external ACP agent the session runs on (R-ACP-2).
type NewSession struct {
	Title         string
	Workspace     string
	Preference    *mode.Preference
	Permission    *policy.PermissionMode
	ExternalAgent string
}

// ListSessions returns every session, most recently updated first.
func (s *Store) ListSessions() ([]Session, error) {
	var out []Session
	err := s.db.Order("updated_at DESC, id DESC").Find(&out).Error
	return out, s.fail(err)
}

// GetSession returns one session or a NOT_FOUND error.
func (s *Store) GetSession(id string) (Session, error) {
	var out Session
	err := s.db.Where("id = ?", id).Take(&out).Error
	if err == gorm.ErrRecordNotFound {
		return out, errs.New(errs.NotFound, "ID", id)
	}
	return out, s.fail(err)
}

// CreateSession inserts a session with a fresh time-ordered id, its permission (the default
// when none is given), its external agent if any, and the first mode.set of its log: one unit of
// work, so a session is never seen half made.
func (s *Store) CreateSession(in NewSession) (Session, error) {
	row, pref, err := newSessionRow(in)
	if err != nil {
		return Session{}, err
	}
	var out Session
	err = s.write(func(tx *gorm.DB) error {
		fresh := row
		if in.Permission == nil {
			def, err := defaultPermission(tx)
			if err != nil {
				return err
			}
			fresh.PermissionMode = string(def.Mode)
		}
		if err := tx.Create(&fresh).Error; err != nil {
			return err
		}
		if _, err := appendEvent(tx, fresh.ID, eventlog.NewModeSet(pref)); err != nil {
			return err
		}
		return tx.Where("id = ?", fresh.ID).Take(&out).Error
	})
	return out, err
}

// newSessionRow validates a new session; only canonical values are ever written (R-DATA-2).
func newSessionRow(in NewSession) (Session, mode.Preference, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return Session{}, mode.Preference{}, errs.New(errs.InvalidInput, "Field", "title")
	}
	if strings.TrimSpace(in.Workspace) == "" {
		return Session{}, mode.Preference{}, errs.New(errs.InvalidInput, "Field", "workspace")
	}
	pref := mode.Default
	if in.Preference != nil {
		pref = *in.Preference
	}
	if err := pref.Validate(); err != nil {
		return Session{}, pref, err
	}
	row := Session{Title: title, Workspace: in.Workspace, InteractionMode: string(pref.Interaction),
		ExecutionOverride: string(pref.Override), ExternalAgent: strings.TrimSpace(in.ExternalAgent)}
	if in.Permission != nil {
		if _, err := policy.ParsePermission(string(*in.Permission)); err != nil {
			return Session{}, pref, err
		}
		row.PermissionMode = string(*in.Permission)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Session{}, pref, errs.Wrap(errs.Internal, err)
	}
	row.ID = id.String()
	return row, pref, nil
}

// RenameSession changes a session's title.
func (s *Store) RenameSession(id, title string) (Session, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return Session{}, errs.New(errs.InvalidInput, "Field", "title")
	}
	err := s.write(func(tx *gorm.DB) error {
		return updateSession(tx, id, map[string]any{"title": title, "updated_at": time.Now().UTC()})
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(id)
}

// updateSession changes columns of one session; a missing session is NOT_FOUND.
func updateSession(tx *gorm.DB, id string, cols map[string]any) error {
	res := tx.Model(&Session{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	return nil
}

// DeleteSession removes a session and, by cascade, its events, turns, queue and decisions.
func (s *Store) DeleteSession(id string) error {
	return s.write(func(tx *gorm.DB) error {
		res := tx.Where("id = ?", id).Delete(&Session{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", id)
		}
		return nil
	})
}
