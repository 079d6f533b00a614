// Package agent runs turns: one user message and everything the agent does until it stops.
// A turn is an explicit state machine (turn.go); every tool call passes the gate (call.go);
// every decision goes through the one registry (ask.go).
package agent

import (
	"context"
	"sync"

	"github.com/google/uuid"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// Broadcast event names of the runtime. Deltas are coalesced (lossy in timing, never in
// content); the others are terminal and published as they happen. They are never the names of
// log entries (eventlog.Type…): a broadcast carries a DTO of its own.
const (
	EventTurnStarted   = "turn.started"
	EventTurnDelta     = "turn.delta"
	EventToolCall      = "tool.call"
	EventToolOutput    = "tool.output"
	EventToolProgress  = "tool.progress"
	EventToolDone      = "tool.done"
	EventDirectDone    = "tool.direct.done"
	EventTurnEnded     = "turn.ended"
	EventQueue         = "queue.changed"
	EventSessionFailed = "session.failed"
	EventModeChanged   = "session.mode"
	EventCleared       = "session.cleared"
)

// QueuedMessageUnreadable: the boundary reached a queued message whose log entry cannot be
// read; it cannot run and was taken off the queue.
const QueuedMessageUnreadable errs.Kind = "QUEUED_MESSAGE_UNREADABLE"

// Options wire a Runtime.
type Options struct {
	Store     *store.Store
	Publish   func(name string, data any)
	Decisions *decision.Registry
	Tools     *tool.Registry
	Provider  ProviderSource
	Messages  *i18n.Bundle
	DataDir   string
	// External runs the turns of sessions on an external ACP agent; nil refuses them.
	External external.Agents
	// MCP serves the tools of the MCP servers (backend/mcp.Host); nil means none.
	MCP tool.ServedTools
	// MaxSteps is the model requests of a turn between two continue decisions; zero reads the
	// step-limit setting at every turn (steps.go).
	MaxSteps int
	// Checkpoints snapshots the workspace before every turn and around every call that may
	// change files (checkpoints.go); nil takes none.
	Checkpoints *checkpoint.Store
}

// ProviderSource gives the provider for a session's next turn, so a change in Settings applies
// to the next turn without a restart, and a session may have a provider of its own (the demo).
type ProviderSource func(sessionID string) (provider.Provider, error)

// Fixed is a source that always gives p.
func Fixed(p provider.Provider) ProviderSource {
	return func(string) (provider.Provider, error) { return p, nil }
}

// ShuttingDown refuses new work once Shutdown has begun.
const ShuttingDown errs.Kind = "SHUTTING_DOWN"

// Runtime runs at most one turn per session at a time.
type Runtime struct {
	opts Options
	// base is the parent of every turn's and direct run's context; Shutdown cancels it.
	base   context.Context
	stop   context.CancelFunc
	direct sync.WaitGroup // direct tool runs in flight
	work   sync.WaitGroup // sends, switches and unqueues in flight (enter)
	slots  slots          // the bound on turns running at once (slots.go)

	// mu guards the maps and closed only; it is never held across the store, so one session's
	// transaction never waits for another's. A session's own order (start, steer, queue, the
	// boundary) is kept by its own lock (sessionlock.go).
	mu      sync.Mutex
	running map[string]*active
	locks   map[string]*sessionLock
	chores  map[string][]*chore // work outside turns, by session (chores.go)
	closed  bool                // Shutdown has begun: nothing new starts

	files sync.Map // session id -> the tool.FileWriter its writes and edits go through (files.go)
}

// active is a running turn as other callers see it.
type active struct {
	turnID string
	pref   mode.Preference
	cancel context.CancelFunc
	steer  chan string
	done   chan struct{}
}

// New returns a runtime.
func New(opts Options) *Runtime {
	base, stop := context.WithCancel(context.Background())
	return &Runtime{opts: opts, base: base, stop: stop, running: map[string]*active{}, locks: map[string]*sessionLock{},
		chores: map[string][]*chore{}}
}

// Shutdown stops the runtime for good: nothing new starts, a turn waiting on a decision a later
// start can take up is suspended (the decision stays pending), every other running turn and
// direct run is cancelled (their pending decisions end as cancelled, what they committed
// stays), and it waits until they have all ended, or ctx ends first.
func (r *Runtime) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	// A turn waiting on the person is let go before anything is cancelled, so its decision
	// stays pending and the next start takes it up (resume.go).
	for _, id := range r.runningSessions() {
		r.opts.Decisions.Suspend(id, Resumable)
	}
	r.stop()
	// A send in flight may still start a turn (cancelled at once): wait for it to be running.
	if err := waitGroup(ctx, &r.work); err != nil {
		return err
	}
	sessions := r.runningSessions()
	for _, id := range sessions {
		r.opts.Decisions.CancelSession(id)
	}
	for _, id := range sessions {
		if err := r.Wait(ctx, id); err != nil {
			return err
		}
	}
	return waitGroup(ctx, &r.direct)
}

func (r *Runtime) runningSessions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	sessions := make([]string, 0, len(r.running))
	for id := range r.running {
		sessions = append(sessions, id)
	}
	return sessions
}

// waitGroup waits for wg, or until ctx ends.
func waitGroup(ctx context.Context, wg *sync.WaitGroup) error {
	idle := make(chan struct{})
	go func() {
		wg.Wait()
		close(idle)
	}()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Input is one message from any caller: the desktop, the browser, the CLI or ACP.
type Input struct {
	SessionID string
	Text      string
	Mode      mode.FollowUpInput
	// Title names the session after the message when the message starts its first turn, in
	// the same unit of work; the zero value names nothing.
	Title store.FirstTitle
}

// Ack says what became of a message: a new turn, steering of the running one, or a place in
// the queue behind a pending switch.
type Ack struct {
	TurnID  string `json:"turnId,omitempty"`
	Steered bool   `json:"steered,omitempty"`
	Queued  bool   `json:"queued,omitempty"`
	Cleared bool   `json:"cleared,omitempty"`
}

// Send validates a message with the one validator and starts, steers or queues it
// (R-MODE-5). A started turn runs in the background; Wait blocks until it ends.
func (r *Runtime) Send(in Input) (Ack, error) {
	current, err := r.opts.Store.ModeInForce(in.SessionID)
	if err != nil {
		return Ack{}, err
	}
	fu, err := mode.ValidateFollowUp(current.Preference, in.Mode)
	if err != nil {
		return Ack{}, err
	}
	if err := r.checkExternal(in.SessionID, fu.Preference); err != nil {
		return Ack{}, err
	}
	if isClear, err := checkShortcut(fu.Preference.Interaction, in.Text); err != nil || isClear {
		if err != nil {
			return Ack{}, err
		}
		return Ack{Cleared: true}, r.clearContext(in.SessionID)
	}
	leave, err := r.enter(in.SessionID)
	if err != nil {
		return Ack{}, err
	}
	defer leave()
	if a, ok := r.runningTurn(in.SessionID); ok {
		return r.whileRunning(a, in, fu)
	}
	q, err := r.opts.Store.Queue(in.SessionID)
	if err != nil {
		return Ack{}, err
	}
	if q.Len() > 0 { // an earlier queue survived a restart: this message waits its turn
		ack, err := r.enqueue(in, fu)
		if err != nil {
			return Ack{}, err
		}
		return ack, r.boundary(in.SessionID)
	}
	return r.start(store.TurnStart{SessionID: in.SessionID, Prompt: in.Text, Preference: fu.Preference, Save: fu.Save,
		Temporary: in.Mode.Temporary, Title: in.Title})
}

// whileRunning steers the running turn with a same-mode message when nothing is queued;
// anything else waits in the queue, so it can never overtake a queued switch.
func (r *Runtime) whileRunning(a *active, in Input, fu mode.FollowUp) (Ack, error) {
	q, err := r.opts.Store.Queue(in.SessionID)
	if err != nil {
		return Ack{}, err
	}
	if q.Steerable() && fu.Preference == a.pref && !in.Mode.Temporary {
		select {
		case a.steer <- in.Text:
			return Ack{TurnID: a.turnID, Steered: true}, nil
		default:
		}
	}
	return r.enqueue(in, fu)
}

// enqueue puts a message, and the switch it asked for, at the end of the queue: one operation.
// A temporary override travels with the message and is never saved.
func (r *Runtime) enqueue(in Input, fu mode.FollowUp) (Ack, error) {
	msg := eventlog.QueuedMessage{MessageID: uuid.NewString(), Text: in.Text}
	if in.Mode.Temporary {
		tmp := mode.ModeSetPayload(eventlog.NewModeSet(fu.Preference))
		msg.Temporary = &tmp
	}
	var sw *mode.Preference
	if fu.Save {
		sw = &fu.Preference
	}
	q, err := r.opts.Store.EnqueueMessage(in.SessionID, store.Enqueued{Switch: sw, Message: msg})
	if err != nil {
		return Ack{}, err
	}
	r.publishQueue(in.SessionID, q)
	return Ack{Queued: true}, nil
}

// Configure changes the preference for the next message: at once when idle, queued to the
// turn boundary while a turn runs (R-MODE-5).
func (r *Runtime) Configure(sessionID string, in mode.FollowUpInput) (queued bool, err error) {
	if in.Temporary {
		return false, errs.New(errs.InvalidInput, "Field", "temporary")
	}
	current, err := r.opts.Store.ModeInForce(sessionID)
	if err != nil {
		return false, err
	}
	fu, err := mode.ValidateFollowUp(current.Preference, in)
	if err != nil {
		return false, err
	}
	if err := r.checkExternal(sessionID, fu.Preference); err != nil {
		return false, err
	}
	leave, err := r.enter(sessionID)
	if err != nil {
		return false, err
	}
	defer leave()
	if _, running := r.runningTurn(sessionID); !running {
		if fu.Save {
			if _, err = r.opts.Store.Configure(sessionID, fu.Preference); err == nil {
				r.publishMode(sessionID, fu.Preference)
			}
		}
		return false, err
	}
	q, err := r.opts.Store.EnqueueSwitch(sessionID, fu.Preference)
	if err != nil {
		return false, err
	}
	r.publishQueue(sessionID, q)
	return true, nil
}

// Running reports the id of the session's running turn, if any.
func (r *Runtime) Running(sessionID string) (string, bool) {
	a, ok := r.runningTurn(sessionID)
	if !ok {
		return "", false
	}
	return a.turnID, true
}

func (r *Runtime) runningTurn(sessionID string) (*active, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.running[sessionID]
	return a, ok
}

// Cancel stops the session's running turn promptly and answers its pending decisions as
// cancelled (R-RUN-4), and stops its chores (a worktree's set-up). What was committed stays.
func (r *Runtime) Cancel(sessionID string) bool {
	chores := r.cancelChores(sessionID)
	a, ok := r.runningTurn(sessionID)
	if !ok {
		return chores
	}
	a.cancel()
	r.opts.Decisions.CancelSession(sessionID)
	return true
}

// Wait blocks until the session has no running turn and nothing left in its queue.
func (r *Runtime) Wait(ctx context.Context, sessionID string) error {
	for {
		a, ok := r.runningTurn(sessionID)
		if !ok {
			return nil
		}
		select {
		case <-a.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (r *Runtime) clearContext(sessionID string) error {
	if _, err := r.opts.Store.AppendStep(sessionID, eventlog.ContextCleared{}); err != nil {
		return err
	}
	r.opts.Publish(EventCleared, ClearedView{SessionID: sessionID})
	return nil
}

// ClearedView is the payload of session.cleared: the session whose context was cleared.
type ClearedView struct {
	SessionID string `json:"sessionId"`
}

// QueueView is the payload of queue.changed.
type QueueView struct {
	SessionID string           `json:"sessionId"`
	Items     []mode.QueueItem `json:"items"`
}

func (r *Runtime) publishQueue(sessionID string, q mode.Queue) {
	r.opts.Publish(EventQueue, QueueView{SessionID: sessionID, Items: q.Items()})
}

// ModeView is the payload of session.mode.
type ModeView struct {
	SessionID         string               `json:"sessionId"`
	InteractionMode   mode.InteractionMode `json:"interactionMode"`
	ExecutionOverride mode.Override        `json:"executionOverride"`
	// Reason says why, when the person did not change it themselves (mode.ReasonPlanApproved).
	Reason string `json:"reason,omitempty"`
}

func (r *Runtime) publishMode(sessionID string, p mode.Preference) {
	r.opts.Publish(EventModeChanged, ModeView{SessionID: sessionID, InteractionMode: p.Interaction, ExecutionOverride: p.Override})
}
