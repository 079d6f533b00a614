package app

import (
	"context"
	"strings"
	"time"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// Session is a session as the frontend sees it, with its effective mode and permission.
type Session struct {
	ID                string                `json:"id"`
	Title             string                `json:"title"`
	Workspace         string                `json:"workspace"`
	InteractionMode   mode.InteractionMode  `json:"interactionMode"`
	ExecutionOverride mode.Override         `json:"executionOverride"`
	PermissionMode    policy.PermissionMode `json:"permissionMode"`
	UnrecognizedMode  string                `json:"unrecognizedMode,omitempty"`
	ExternalAgent     string                `json:"externalAgent,omitempty"`
	// Demo is a session of the offline demo: it runs on its own script, in its own folder.
	Demo bool `json:"demo,omitempty"`
	// Running, Waiting and StateSeq are the session's live state (see SessionState).
	Running   bool      `json:"running"`
	Waiting   int       `json:"waiting"`
	StateSeq  uint64    `json:"stateSeq"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// CreateSessionRequest asks for a new session. The workspace is required — there is no default
// folder — and passes workspace.Resolve: ConfirmHome is the person's consent to the home folder
// itself. An empty title takes the default;
// omitted modes mean plain Smart; an omitted permission means the Settings default, applied
// by the backend at create time (R-AUTH-2).
type CreateSessionRequest struct {
	Title             string  `json:"title,omitempty"`
	Workspace         string  `json:"workspace,omitempty"`
	InteractionMode   *string `json:"interactionMode,omitempty"`
	ExecutionOverride *string `json:"executionOverride,omitempty"`
	PermissionMode    *string `json:"permissionMode,omitempty"`
	// ExternalAgent runs the session on an external ACP agent: one of the command lines saved
	// in Settings. Empty means the built-in runtime.
	ExternalAgent string `json:"externalAgent,omitempty"`
	ConfirmHome   bool   `json:"confirmHome,omitempty"`
	// Isolated runs the session in a git worktree of its own; CarryChanges brings the folder's
	// uncommitted changes along.
	Isolated     bool `json:"isolated,omitempty"`
	CarryChanges bool `json:"carryChanges,omitempty"`
	// RepoSetup is the repository's proposed set-up command, as the composer showed it, when the
	// person ticked it for this task; it runs only if the new worktree proposes exactly this
	// text. Never saved: the next task is asked again.
	RepoSetup string `json:"repoSetup,omitempty"`
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

func (f *Sessions) svc() *session.Service {
	return &session.Service{Store: f.s.Store, Publish: f.s.Bus.Publish}
}

// ListSessionsRequest asks for a page of the session list, most recently active first: Limit
// sessions (DefaultPage when 0) after the cursor After ("" for the first page).
type ListSessionsRequest struct {
	Limit int    `json:"limit,omitempty"`
	After string `json:"after,omitempty"`
}

// SessionPage is a page of sessions and the cursor of the next one ("" after the last).
type SessionPage struct {
	Sessions []Session `json:"sessions"`
	Next     string    `json:"next"`
}

// DefaultPage is how many sessions a list request returns when it names no limit: a window's
// worth and more, so the first screen needs one request.
const DefaultPage = 50

// List returns a page of sessions, most recently active first; each is read from its row alone.
func (f *Sessions) List(req ListSessionsRequest) (SessionPage, error) {
	if req.Limit == 0 {
		req.Limit = DefaultPage
	}
	page, err := f.svc().List(store.SessionRange{Limit: req.Limit, After: req.After})
	if err != nil {
		return SessionPage{}, f.s.fail(err)
	}
	out := SessionPage{Sessions: make([]Session, len(page.Sessions)), Next: page.Next}
	for i, v := range page.Sessions {
		out.Sessions[i] = f.dto(v)
	}
	return out, nil
}

// Get reads one session from its row: a link to a session beyond the pages of the list the
// window has loaded opens it without loading every page before it.
func (f *Sessions) Get(req SessionRef) (Session, error) {
	v, err := f.svc().View(req.ID)
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	return f.dto(v), nil
}

// Create makes a session over an existing folder.
func (f *Sessions) Create(req CreateSessionRequest) (Session, error) {
	in := session.CreateInput{Title: strings.TrimSpace(req.Title), Workspace: strings.TrimSpace(req.Workspace),
		Mode: mode.FollowUpInput{InteractionMode: req.InteractionMode, ExecutionOverride: req.ExecutionOverride}, Permission: req.PermissionMode,
		ConfirmHome: req.ConfirmHome, Isolated: req.Isolated, Carry: req.CarryChanges}
	if in.Title == "" {
		in.Title = f.s.T("session.defaultTitle", nil)
	}
	var out Session
	var err error
	if agentCmd := strings.TrimSpace(req.ExternalAgent); agentCmd != "" {
		out, err = f.changed(client.CreateSession(f.svc(), in, agentCmd))
		if err == nil {
			f.s.startAgent(out.ID)
		}
	} else {
		out, err = f.changed(f.svc().Create(in))
	}
	if err == nil && req.Isolated {
		f.s.setUpWorktree(out.ID, req.RepoSetup)
	}
	return out, err
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

// continuePrompt asks the model to pick up a turn that ended unfinished; it is model-facing text.
const continuePrompt = "Continue where you left off. The previous turn stopped before it finished."

// Continue goes on in a session whose last turn ended unfinished: interrupted, failed, or
// stopped at its step limit.
func (f *Sessions) Continue(req SessionRef) (agent.Ack, error) {
	return (&Composer{f.s}).Send(SendRequest{SessionID: req.ID, Text: continuePrompt})
}

// SetPermission changes this session's permission mode only; the default stays (R-AUTH-3).
func (f *Sessions) SetPermission(req SetSessionPermissionRequest) (Session, error) {
	out, err := f.changed(f.svc().SetPermission(req.ID, req.PermissionMode))
	if err == nil {
		f.s.Bus.Publish(EventPermissionChanged, PermissionView{SessionID: out.ID, PermissionMode: string(out.PermissionMode)})
	}
	return out, err
}

// EventPermissionChanged says a session's permission mode changed; the transcript shows it
// where it happened, as it shows a mode change.
const EventPermissionChanged = "session.permission"

// PermissionView is the payload of session.permission.
type PermissionView struct {
	SessionID      string `json:"sessionId"`
	PermissionMode string `json:"permissionMode"`
}

// ForkRequest names the session to copy and, with Before, the log entry the copy stops before
// (a compaction, say: the copy then continues from the original words).
type ForkRequest struct {
	ID     string `json:"id"`
	Before int64  `json:"before,omitempty"`
}

// Fork copies a session with its history (up to Before, when set); the copy is in the same mode.
func (f *Sessions) Fork(req ForkRequest) (Session, error) {
	fork := func() (store.Session, error) { return f.s.Store.ForkSession(req.ID, "") }
	if req.Before != 0 {
		fork = func() (store.Session, error) { return f.s.Store.ForkSessionBefore(req.ID, "", req.Before) }
	}
	row, err := fork()
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	return f.changed(f.svc().View(row.ID))
}

// Delete removes a session and its history.
func (f *Sessions) Delete(req SessionRef) error {
	if err := f.svc().Delete(context.Background(), req.ID); err != nil {
		return f.s.fail(err)
	}
	if err := f.s.demos.remove(req.ID); err != nil {
		return f.s.fail(err)
	}
	f.s.Bus.Publish(EventSessionsChanged, SessionsChanged{Sessions: []Session{}, Removed: []string{req.ID}})
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

// changed localizes a failure, or broadcasts the changed session and returns it.
func (f *Sessions) changed(v session.View, err error) (Session, error) {
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	out := f.dto(v)
	f.s.Bus.Publish(EventSessionsChanged, SessionsChanged{Sessions: []Session{out}, Removed: []string{}})
	return out, nil
}

// EventSessionsChanged carries the sessions that changed, and those that are gone, so every
// window and tab shows the same list: each merges them by id into the pages it holds.
const EventSessionsChanged = "sessions.changed"

// SessionsChanged is the payload of sessions.changed.
type SessionsChanged struct {
	Sessions []Session `json:"sessions"`
	Removed  []string  `json:"removed"`
}

// publishSession broadcasts one session as it is now.
func (s *Services) publishSession(id string) {
	f := &Sessions{s}
	if v, err := f.svc().View(id); err == nil {
		f.changed(v, nil)
	}
}

func (f *Sessions) dto(v session.View) Session {
	st := f.s.states.get(v.ID)
	return Session{ExternalAgent: v.ExternalAgent, ID: v.ID, Title: v.Title, Workspace: v.Workspace, InteractionMode: mode.InteractionMode(v.InteractionMode),
		ExecutionOverride: mode.Override(v.ExecutionOverride), PermissionMode: policy.PermissionMode(v.PermissionMode), UnrecognizedMode: v.UnrecognizedMode,
		Running: st.Running, Waiting: st.Waiting, StateSeq: st.Seq, CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt,
		Demo: f.s.demos.isDemo(v.ID)}
}
