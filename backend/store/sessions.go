package store

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
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
	ModeQueue         string
	ExternalAgent     string
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// NewSession is what a caller supplies to create a session. A nil Preference means plain Smart;
// a nil Permission means the default in force at create time (R-AUTH-2).
type NewSession struct {
	Title      string
	Workspace  string
	Preference *mode.Preference
	Permission *policy.PermissionMode
}

// ListSessions returns every session, most recently updated first.
func (s *Store) ListSessions() ([]Session, error) {
	var out []Session
	err := s.db.Order("updated_at DESC, id DESC").Find(&out).Error
	return out, storeErr(err)
}

// GetSession returns one session or a NOT_FOUND error.
func (s *Store) GetSession(id string) (Session, error) {
	var out Session
	err := s.db.Where("id = ?", id).Take(&out).Error
	if err == gorm.ErrRecordNotFound {
		return out, errs.New(errs.NotFound, "ID", id)
	}
	return out, storeErr(err)
}

// CreateSession inserts a session with a fresh time-ordered id, its permission (the default
// when none is given) and the first mode.set of its log, in one transaction.
func (s *Store) CreateSession(in NewSession) (Session, error) {
	row, pref, err := newSessionRow(in)
	if err != nil {
		return Session{}, err
	}
	err = s.db.Transaction(func(tx *gorm.DB) error {
		if in.Permission == nil {
			def, err := defaultPermission(tx)
			if err != nil {
				return err
			}
			row.PermissionMode = string(def.Mode)
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		_, err := appendModeSet(tx, row.ID, pref)
		return err
	})
	if err != nil {
		return Session{}, storeErr(err)
	}
	return s.GetSession(row.ID)
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
		ExecutionOverride: string(pref.Override), ModeQueue: emptyQueue}
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
	res := s.db.Model(&Session{}).Where("id = ?", id).Updates(map[string]any{"title": title, "updated_at": time.Now().UTC()})
	if res.Error != nil {
		return Session{}, storeErr(res.Error)
	}
	if res.RowsAffected == 0 {
		return Session{}, errs.New(errs.NotFound, "ID", id)
	}
	return s.GetSession(id)
}

// DeleteSession removes a session and, by cascade, its events.
func (s *Store) DeleteSession(id string) error {
	res := s.db.Where("id = ?", id).Delete(&Session{})
	if res.Error != nil {
		return storeErr(res.Error)
	}
	if res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	return nil
}
