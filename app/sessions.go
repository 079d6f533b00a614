package app

import (
	"os"
	"strings"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// Session is a session as the frontend sees it.
type Session struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Workspace string    `json:"workspace"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// CreateSessionRequest asks for a new session; empty fields take the defaults.
type CreateSessionRequest struct {
	Title     string `json:"title"`
	Workspace string `json:"workspace"`
}

// RenameSessionRequest retitles a session.
type RenameSessionRequest struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// SessionRef names one session.
type SessionRef struct {
	ID string `json:"id"`
}

// Sessions is the session list's facade.
type Sessions struct{ s *Services }

// List returns every session, most recently updated first.
func (f *Sessions) List() ([]Session, error) {
	rows, err := f.s.Store.ListSessions()
	if err != nil {
		return nil, f.s.fail(err)
	}
	out := make([]Session, len(rows))
	for i, r := range rows {
		out[i] = sessionDTO(r)
	}
	return out, nil
}

// Create makes a session over an existing folder.
func (f *Sessions) Create(req CreateSessionRequest) (Session, error) {
	workspace := strings.TrimSpace(req.Workspace)
	if workspace == "" {
		workspace = f.s.Info.DefaultWorkspace
	}
	if st, err := os.Stat(workspace); err != nil || !st.IsDir() {
		return Session{}, f.s.fail(errs.New(errs.NoWorkspace, "Path", workspace))
	}
	title := strings.TrimSpace(req.Title)
	if title == "" {
		title = f.s.T("session.defaultTitle", nil)
	}
	row, err := f.s.Store.CreateSession(store.NewSession{Title: title, Workspace: workspace})
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	f.s.publishSessions()
	return sessionDTO(row), nil
}

// Rename retitles a session.
func (f *Sessions) Rename(req RenameSessionRequest) (Session, error) {
	row, err := f.s.Store.RenameSession(req.ID, req.Title)
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	f.s.publishSessions()
	return sessionDTO(row), nil
}

// Delete removes a session and its history.
func (f *Sessions) Delete(req SessionRef) error {
	if err := f.s.Store.DeleteSession(req.ID); err != nil {
		return f.s.fail(err)
	}
	f.s.publishSessions()
	return nil
}

// publishSessions broadcasts the whole list, so every window and tab shows the same sessions.
func (s *Services) publishSessions() {
	list, err := (&Sessions{s}).List()
	if err == nil {
		s.Bus.Publish("sessions.changed", list)
	}
}

func sessionDTO(r store.Session) Session {
	return Session{ID: r.ID, Title: r.Title, Workspace: r.Workspace, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}
