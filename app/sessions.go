package app

import (
	"context"
	"strings"
	"time"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/mode"
	"agentdesk/backend/session"
)

// Session is a session as the frontend sees it, with its effective mode and permission.
type Session struct {
	ID                string `json:"id"`
	Title             string `json:"title"`
	Workspace         string `json:"workspace"`
	InteractionMode   string `json:"interactionMode"`
	ExecutionOverride string `json:"executionOverride"`
	PermissionMode    string `json:"permissionMode"`
	UnrecognizedMode  string `json:"unrecognizedMode,omitempty"`
	ExternalAgent     string `json:"externalAgent,omitempty"`
	// Demo is a session of the offline demo: it runs on its own script, in its own folder.
	Demo bool `json:"demo,omitempty"`
	// Running, Waiting and StateSeq are the session's live state (see SessionState).
	Running   bool      `json:"running"`
	Waiting   int       `json:"waiting"`
	StateSeq  uint64    `json:"stateSeq"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// CreateSessionRequest asks for a new session. Empty title and workspace take the defaults;
// omitted modes mean plain Smart; an omitted permission means the Settings default, applied
// by the backend at create time (R-AUTH-2).
type CreateSessionRequest struct {
	Title             string  `json:"title"`
	Workspace         string  `json:"workspace"`
	InteractionMode   *string `json:"interactionMode,omitempty"`
	ExecutionOverride *string `json:"executionOverride,omitempty"`
	PermissionMode    *string `json:"permissionMode,omitempty"`
	// ExternalAgent runs the session on an external ACP agent: one of the command lines saved
	// in Settings. Empty means the built-in runtime.
	ExternalAgent string `json:"externalAgent,omitempty"`
}

// RenameSessionRequest retitles a session.
type RenameSessionRequest struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// ConfigureSessionRequest changes the interaction preference for the next message.
type ConfigureSessionRequest struct {
	ID                string  `json:"id"`
	InteractionMode   *string `json:"interactionMode,omitempty"`
	ExecutionOverride *string `json:"executionOverride,omitempty"`
}

// SetSessionPermissionRequest changes one session's permission mode.
type SetSessionPermissionRequest struct {
	ID             string `json:"id"`
	PermissionMode string `json:"permissionMode"`
}

// SessionRef names one session.
type SessionRef struct {
	ID string `json:"id"`
}

// Sessions is the session list's facade.
type Sessions struct{ s *Services }

func (f *Sessions) svc() *session.Service { return &session.Service{Store: f.s.Store} }

// List returns every session, most recently updated first.
func (f *Sessions) List() ([]Session, error) {
	views, err := f.svc().List()
	if err != nil {
		return nil, f.s.fail(err)
	}
	out := make([]Session, len(views))
	for i, v := range views {
		out[i] = f.dto(v)
	}
	return out, nil
}

// Create makes a session over an existing folder.
func (f *Sessions) Create(req CreateSessionRequest) (Session, error) {
	in := session.CreateInput{Title: strings.TrimSpace(req.Title), Workspace: strings.TrimSpace(req.Workspace),
		Mode: mode.FollowUpInput{InteractionMode: req.InteractionMode, ExecutionOverride: req.ExecutionOverride}, Permission: req.PermissionMode}
	if in.Workspace == "" {
		in.Workspace = f.s.Info.DefaultWorkspace
	}
	if in.Title == "" {
		in.Title = f.s.T("session.defaultTitle", nil)
	}
	if agentCmd := strings.TrimSpace(req.ExternalAgent); agentCmd != "" {
		out, err := f.changed(client.CreateSession(f.svc(), in, agentCmd))
		if err == nil {
			f.s.startAgent(out.ID)
		}
		return out, err
	}
	return f.changed(f.svc().Create(in))
}

// Rename retitles a session.
func (f *Sessions) Rename(req RenameSessionRequest) (Session, error) {
	if _, err := f.s.Store.RenameSession(req.ID, req.Title); err != nil {
		return Session{}, f.s.fail(err)
	}
	return f.changed(f.svc().View(req.ID))
}

// ConfigureResult is the session after a selector change, and whether the change waits for
// the running turn to end (R-MODE-5).
type ConfigureResult struct {
	Session Session `json:"session"`
	Queued  bool    `json:"queued"`
}

// Configure sets the session's interaction preference for its next message; while a turn runs
// it is queued to the turn boundary.
func (f *Sessions) Configure(req ConfigureSessionRequest) (ConfigureResult, error) {
	queued, err := f.s.Runtime.Configure(req.ID, mode.FollowUpInput{InteractionMode: req.InteractionMode, ExecutionOverride: req.ExecutionOverride})
	if err != nil {
		return ConfigureResult{}, f.s.fail(err)
	}
	sess, err := f.changed(f.svc().View(req.ID))
	return ConfigureResult{Session: sess, Queued: queued}, err
}

// continuePrompt asks the model to pick up an interrupted turn; it is model-facing text.
const continuePrompt = "Continue where you left off. The previous turn was interrupted before it finished."

// Continue resumes a session whose last turn was interrupted.
func (f *Sessions) Continue(req SessionRef) (agent.Ack, error) {
	return (&Composer{f.s}).Send(SendRequest{SessionID: req.ID, Text: continuePrompt})
}

// SetPermission changes this session's permission mode only; the default stays (R-AUTH-3).
func (f *Sessions) SetPermission(req SetSessionPermissionRequest) (Session, error) {
	return f.changed(f.svc().SetPermission(req.ID, req.PermissionMode))
}

// Fork copies a session with its history; the copy is in the same mode.
func (f *Sessions) Fork(req SessionRef) (Session, error) {
	row, err := f.s.Store.ForkSession(req.ID, "")
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	return f.changed(f.svc().View(row.ID))
}

// Delete removes a session and its history.
func (f *Sessions) Delete(req SessionRef) error {
	if err := f.s.Store.DeleteSession(req.ID); err != nil {
		return f.s.fail(err)
	}
	if err := f.s.demos.remove(req.ID); err != nil {
		return f.s.fail(err)
	}
	f.s.publishSessions()
	return nil
}

// startAgent starts the external agent of a session that runs on one, in the background: it is
// ready when the person writes, and agent.status reports its progress (or why it failed).
func (s *Services) startAgent(sessionID string) {
	if cmd, err := s.Store.ExternalAgent(sessionID); err != nil || cmd == "" {
		return
	}
	go s.Runtime.OpenExternal(context.Background(), sessionID)
}

// changed localizes a failure, or broadcasts the new list and returns the session.
func (f *Sessions) changed(v session.View, err error) (Session, error) {
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	f.s.publishSessions()
	return f.dto(v), nil
}

// publishSessions broadcasts the whole list, so every window and tab shows the same sessions.
func (s *Services) publishSessions() {
	list, err := (&Sessions{s}).List()
	if err == nil {
		s.Bus.Publish("sessions.changed", list)
	}
}

func (f *Sessions) dto(v session.View) Session {
	st := f.s.states.get(v.ID)
	external, _ := f.s.Store.ExternalAgent(v.ID)
	return Session{ExternalAgent: external, ID: v.ID, Title: v.Title, Workspace: v.Workspace, InteractionMode: v.InteractionMode,
		ExecutionOverride: v.ExecutionOverride, PermissionMode: v.PermissionMode, UnrecognizedMode: v.UnrecognizedMode,
		Running: st.Running, Waiting: st.Waiting, StateSeq: st.Seq, CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt,
		Demo: f.s.demos.isDemo(v.ID)}
}
