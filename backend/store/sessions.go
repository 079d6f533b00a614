package store

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// Session is one conversation with the agent over a workspace folder.
type Session struct {
	ID        string `gorm:"primaryKey"`
	Title     string
	Workspace string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewSession is what a caller supplies to create a session.
type NewSession struct {
	Title     string
	Workspace string
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

// CreateSession inserts a session with a fresh time-ordered id.
func (s *Store) CreateSession(in NewSession) (Session, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return Session{}, errs.New(errs.InvalidInput, "Field", "title")
	}
	if strings.TrimSpace(in.Workspace) == "" {
		return Session{}, errs.New(errs.InvalidInput, "Field", "workspace")
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Session{}, errs.Wrap(errs.Internal, err)
	}
	row := Session{ID: id.String(), Title: title, Workspace: in.Workspace}
	return row, storeErr(s.db.Create(&row).Error)
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
