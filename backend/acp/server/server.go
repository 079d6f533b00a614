// Package server serves AgentDesk as an Agent Client Protocol agent over stdio (R-ACP-1), for
// Zed and other editors. Sessions created over ACP are ordinary AgentDesk sessions: the real
// runtime runs their turns, the one validator checks their mode switches, and the one decision
// registry holds their approvals, which reach the editor as session/request_permission.
package server

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/workspace"
)

// Options wire a server to the same parts `agentdesk run` uses.
type Options struct {
	Store     *store.Store
	Runtime   *agent.Runtime
	Decisions *decision.Registry
	Bus       *bus.Bus
	Messages  *i18n.Bundle
	Lang      string    // the language of mode names, option names and errors
	Version   string    // reported in initialize
	Log       io.Writer // diagnostics; never stdout
	// Permission is the permission mode of sessions created over ACP; nil means the default
	// from Settings (R-AUTH-2).
	Permission *string
	// MCP runs the MCP servers an editor passes with session/new and session/load; nil ignores them.
	MCP MCPSessions
}

// Server is one ACP connection.
type Server struct {
	opts    Options
	conn    *acp.AgentSideConnection
	events  *bus.Subscription // the runtime's broadcasts, handled by onEvent
	out     *outbox
	replies *replies

	mu       sync.Mutex
	attached map[string]bool                   // sessions this client created or loaded
	lastCall map[string]string                 // session -> id of its last tool call, for permission requests
	calls    map[string]agent.ToolCallView     // tool call id -> the call, while it is open
	outputs  map[string]string                 // tool call id -> output so far
	open     map[string]map[string]bool        // session -> tool calls shown and not finished
	asks     map[string]context.CancelFunc     // decision id -> its outstanding request_permission
	waiters  map[string][]chan agent.TurnEnded // session -> prompts waiting for a turn's end
	setting  map[string]mode.Preference        // session -> the switch a set_mode is applying now
	clientFs acp.FileSystemCapabilities        // what the client offered to do with files
}

// Serve speaks ACP on in/out until the client disconnects or ctx ends; then the turns of the
// client's sessions are cancelled, keeping what they committed.
func Serve(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	s := &Server{opts: opts, out: newOutbox(), replies: newReplies(), attached: map[string]bool{},
		lastCall: map[string]string{}, calls: map[string]agent.ToolCallView{}, outputs: map[string]string{}, open: map[string]map[string]bool{}, asks: map[string]context.CancelFunc{},
		waiters: map[string][]chan agent.TurnEnded{}, setting: map[string]mode.Preference{}}
	s.events = opts.Bus.Subscribe(s.onEvent, bus.Queue(eventQueue))
	defer s.events.Close()
	s.conn = acp.NewAgentSideConnection(s, s.replies.writer(out), s.replies.reader(in))
	s.conn.SetLogger(slog.New(slog.NewTextHandler(opts.Log, nil)))
	go s.out.run()
	defer s.out.close()
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	s.stopAll()
	return nil
}

// stopAll cancels the running turns of the client's sessions and waits briefly for them.
func (s *Server) stopAll() {
	s.mu.Lock()
	ids := make([]string, 0, len(s.attached))
	for id := range s.attached {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, id := range ids {
		s.opts.Runtime.Cancel(id)
		s.opts.Runtime.Wait(ctx, id)
		s.releaseFiles(id)
	}
}

var _ acp.Agent = (*Server)(nil)
var _ acp.AgentLoader = (*Server)(nil)

// Initialize reports the protocol version and what the server does beyond the baseline:
// sessions can be loaded and listed.
func (s *Server) Initialize(ctx context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
	s.mu.Lock()
	s.clientFs = req.ClientCapabilities.Fs
	s.mu.Unlock()
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentCapabilities: acp.AgentCapabilities{LoadSession: true,
			PromptCapabilities: acp.PromptCapabilities{EmbeddedContext: true}, McpCapabilities: acp.McpCapabilities{Http: s.opts.MCP != nil},
			SessionCapabilities: acp.SessionCapabilities{List: &acp.SessionListCapabilities{}}},
		AgentInfo:   &acp.Implementation{Name: "agentdesk", Title: acp.Ptr("AgentDesk"), Version: s.opts.Version},
		AuthMethods: []acp.AuthMethod{},
	}, nil
}

// Authenticate has nothing to do: providers find their keys themselves.
func (s *Server) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

// NewSession creates an ordinary AgentDesk session over the client's folder.
func (s *Server) NewSession(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	svc := &session.Service{Store: s.opts.Store}
	title := s.t("acp.session.title", map[string]any{"Folder": filepath.Base(req.Cwd)})
	v, err := svc.Create(session.CreateInput{Title: title, Workspace: req.Cwd, Permission: s.opts.Permission})
	if err != nil {
		return acp.NewSessionResponse{}, s.fail(err)
	}
	s.attach(v.ID)
	s.forwardMCP(v.ID, req.McpServers)
	modes, options, err := s.modes(v.ID)
	if err != nil {
		return acp.NewSessionResponse{}, s.fail(err)
	}
	return acp.NewSessionResponse{SessionId: acp.SessionId(v.ID), Modes: modes, ConfigOptions: options}, nil
}

// LoadSession replays the session's history from its log, then reports its mode in force,
// restored from the log (R-PLAN-1), and takes up a turn left waiting on the person.
func (s *Server) LoadSession(ctx context.Context, req acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	id := string(req.SessionId)
	log, err := s.opts.Store.Log(id)
	if err != nil {
		return acp.LoadSessionResponse{}, s.fail(err)
	}
	modes, options, err := s.modes(id)
	if err != nil {
		return acp.LoadSessionResponse{}, s.fail(err)
	}
	for _, u := range s.replay(log, s.whereOf(id)) {
		s.notify(id, u)
	}
	s.out.flush()
	s.attach(id)
	s.forwardMCP(id, req.McpServers)
	if err := s.takeUp(id); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	return acp.LoadSessionResponse{Modes: modes, ConfigOptions: options}, nil
}

// takeUp brings back the session's turn that a stopped AgentDesk left waiting on the person:
// once attached, the client is asked its decision again (session/request_permission) and sees
// the turn carry on.
func (s *Server) takeUp(id string) error {
	if _, err := s.opts.Runtime.Resume(id); err != nil {
		return s.fail(err)
	}
	return nil
}

// ResumeSession attaches to a session without replaying it, and takes up a turn left waiting
// on the person.
func (s *Server) ResumeSession(ctx context.Context, req acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	id := string(req.SessionId)
	modes, options, err := s.modes(id)
	if err != nil {
		return acp.ResumeSessionResponse{}, s.fail(err)
	}
	s.attach(id)
	if err := s.takeUp(id); err != nil {
		return acp.ResumeSessionResponse{}, err
	}
	return acp.ResumeSessionResponse{Modes: modes, ConfigOptions: options}, nil
}

// ListSessions lists AgentDesk's sessions a page at a time, most recently active first, those
// over one folder when cwd is given; nextCursor continues the list.
func (s *Server) ListSessions(ctx context.Context, req acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	r := store.SessionRange{Limit: acpListPage}
	if req.Cwd != nil {
		r.Workspace = *req.Cwd
	}
	if req.Cursor != nil {
		r.After = *req.Cursor
	}
	page, err := s.opts.Store.SessionsPage(r)
	if err != nil {
		return acp.ListSessionsResponse{}, s.fail(err)
	}
	out := acp.ListSessionsResponse{Sessions: []acp.SessionInfo{}}
	for _, r := range page.Sessions {
		out.Sessions = append(out.Sessions, acp.SessionInfo{SessionId: acp.SessionId(r.ID), Cwd: r.Workspace,
			Title: acp.Ptr(r.Title), UpdatedAt: acp.Ptr(r.UpdatedAt.Format(time.RFC3339))})
	}
	if page.Next != "" {
		out.NextCursor = acp.Ptr(page.Next)
	}
	return out, nil
}

// acpListPage is how many sessions one session/list answer holds.
const acpListPage = 200

// CloseSession stops the session's turn and detaches it from this client.
func (s *Server) CloseSession(ctx context.Context, req acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	id := string(req.SessionId)
	s.opts.Runtime.Cancel(id)
	s.releaseFiles(id)
	s.mu.Lock()
	delete(s.attached, id)
	s.mu.Unlock()
	return acp.CloseSessionResponse{}, nil
}

// Cancel stops the running turn: pending decisions end as cancelled and the prompt returns
// stopReason cancelled (R-RUN-4).
func (s *Server) Cancel(ctx context.Context, n acp.CancelNotification) error {
	s.opts.Runtime.Cancel(string(n.SessionId))
	return nil
}

func (s *Server) attach(id string) {
	s.mu.Lock()
	s.attached[id] = true
	s.mu.Unlock()
	s.useFiles(id)
}

func (s *Server) isAttached(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attached[id]
}

func (s *Server) t(key string, args map[string]any) string {
	return s.opts.Messages.T(s.opts.Lang, key, args)
}

// fail turns an error into a JSON-RPC error whose message is localized and whose data names
// the kind, so clients can tell an unknown mode from a store failure.
func (s *Server) fail(err error) error {
	if _, ok := err.(*acp.RequestError); ok {
		return err
	}
	kind := errs.KindOf(err)
	code := -32603
	switch kind {
	case errs.InvalidValue, errs.InvalidInput, errs.NoWorkspace, mode.ChatWithOverride, external.ChatRefused, agent.ShortcutInChat,
		workspace.Required, workspace.Relative, workspace.Invalid, workspace.SystemFolder, workspace.ContainsHome, workspace.HomeNeedsConfirmation,
		FullAccessDeclined:
		code = -32602
	case errs.NotFound:
		code = -32002
	}
	return &acp.RequestError{Code: code, Message: s.opts.Messages.Error(s.opts.Lang, err), Data: map[string]any{"kind": string(kind)}}
}

// promptText joins the prompt's blocks: text as written, resources with their text, links by
// their address.
func promptText(blocks []acp.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.ResourceLink != nil:
			parts = append(parts, b.ResourceLink.Uri)
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			parts = append(parts, r.Uri+"\n"+r.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}
