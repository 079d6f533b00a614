package agent

import (
	"context"
	"encoding/json"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// Error kinds of sessions that run on an external ACP agent (R-ACP-2).
const (
	// ChatWithExternalAgent refuses Chat for an external agent: AgentDesk cannot enforce that
	// agent's no-tool contract (R-MODE-3).
	ChatWithExternalAgent errs.Kind = "CHAT_WITH_EXTERNAL_AGENT"
	// ExternalAgentFailed ends a turn whose agent could not start, died or broke off.
	ExternalAgentFailed errs.Kind = "EXTERNAL_AGENT_FAILED"
	// ExternalAgentProtocol ends a turn whose agent wrote something that is not ACP.
	ExternalAgentProtocol errs.Kind = "EXTERNAL_AGENT_PROTOCOL"
	// ExternalAgentUnavailable is a session on an external agent in a process that cannot run one.
	ExternalAgentUnavailable errs.Kind = "EXTERNAL_AGENT_UNAVAILABLE"
)

// VerdictExternal marks a tool call that an external agent made: it passed that agent's own
// permission flow, not our gate, and its approvals reached the person as decisions.
const VerdictExternal = "external"

// ExternalAgents runs prompts on external ACP agents; backend/acp/client implements it. The
// runtime keeps the turn itself — queue, decisions, events and turn records — exactly as for
// the built-in loop, and hands only the prompt to the agent.
type ExternalAgents interface {
	// Open starts the session's agent when it is not running: initialize, then session/load of
	// the agent's own earlier session when it has one, else session/new.
	Open(ctx context.Context, s ExternalSession) (ExternalInfo, error)
	// Prompt sends one prompt to the session's agent (starting it when needed, as Open does)
	// and reports what the agent does to h until the agent answers. The stop reason is ACP's
	// ("end_turn", "cancelled", …). When ctx ends, the agent is told to cancel.
	Prompt(ctx context.Context, p ExternalPrompt, h ExternalHandler) (stopReason string, err error)
	// Info reports what the session's running agent offers; ok is false when none runs.
	Info(sessionID string) (info ExternalInfo, ok bool)
}

// ExternalSession names the agent of one AgentDesk session and how to start it.
type ExternalSession struct {
	SessionID string
	Command   string // the agent's command line, as saved in Settings
	Workspace string
	// AgentSession is the id the agent gave this session when it last ran ("" for none): a
	// restarted agent is asked to load it, so it keeps its memory.
	AgentSession string
	// StartTimeout bounds initialize and session/new or session/load (a Setting).
	StartTimeout time.Duration
}

// ExternalInfo is what a started agent offers.
type ExternalInfo struct {
	AgentSession string // the agent's id of the session now in force
	Loaded       bool   // the agent loaded its earlier session
	PlanMode     bool   // the agent has a mode for planning (a mode, or a value of its mode option)
}

// ExternalPrompt is one prompt for an external agent.
type ExternalPrompt struct {
	ExternalSession
	TurnID string
	Text   string
	ModeID string // the selector id in force (see ModeID)
	// ExecutionMode is the turn's resolved execution mode: the agent is put in its plan mode
	// for the read-only ones and in its working mode for the others.
	ExecutionMode string
	// Notes are what AgentDesk has to tell the agent before the person's text: why calls it
	// asked for since its last prompt were declined (ACP's permission answer has no reason).
	Notes []string
	// Recap is the conversation before this turn, for an agent that starts afresh on a session
	// with a history (its own session could not be loaded); "" when there is none.
	Recap func() string
}

// ExternalToolCall is a tool call the agent reports; empty fields were not reported.
type ExternalToolCall struct {
	ID        string
	Title     string
	Kind      string // ACP: read, edit, delete, move, search, execute, think, fetch, switch_mode, other
	Status    string // ACP: pending, in_progress, completed, failed
	Input     json.RawMessage
	Output    string
	Locations []string       // the paths it touches, absolute
	Diffs     []ExternalDiff // the changes it makes to files
}

// ExternalDiff is one file change a tool call reports.
type ExternalDiff struct {
	Path    string
	OldText *string // nil for a new file
	NewText string
}

// ExternalOption is one answer the agent offers in a permission request.
type ExternalOption struct {
	ID   string
	Kind string // ACP: allow_once, allow_always, reject_once, reject_always
	Name string
}

// ExternalPermission is the agent asking before a tool call.
type ExternalPermission struct {
	Call    ExternalToolCall
	Options []ExternalOption
}

// ExternalAnswer is the answer to a permission request: the agent's option ("" means the
// request ended unanswered, ACP's cancelled outcome) and, for a decline, why.
type ExternalAnswer struct {
	OptionID string
	Reason   string
}

// ExternalHandler receives what the external agent does during a prompt.
type ExternalHandler interface {
	Text(chunk string)
	ToolCall(c ExternalToolCall)
	ToolUpdate(c ExternalToolCall)
	// Permission puts the request through AgentDesk's gate, and to the person through the
	// decision registry where the gate asks.
	Permission(ctx context.Context, p ExternalPermission) (ExternalAnswer, error)
	// ModeChanged reports a switch the agent made itself, as one of our selector ids.
	ModeChanged(id string)
	// ReadTextFile and WriteTextFile are ACP's client file system, through the gate and the
	// file tools. Line is 1-based; 0 and limit 0 mean from the start and to the end.
	ReadTextFile(ctx context.Context, path string, line, limit int) (string, error)
	WriteTextFile(ctx context.Context, path, content string) error
}

// ModeIDs are the selector ids every surface speaks (ACP and external agents): the two
// interaction modes, then the overrides, each meaning Smart with that override.
func ModeIDs() []string {
	ids := []string{string(mode.Smart), string(mode.Chat)}
	for _, o := range mode.Overrides {
		ids = append(ids, string(o))
	}
	return ids
}

// ModeID is the selector id of a preference: its override when set, else its interaction mode.
func ModeID(p mode.Preference) string {
	if p.Override.IsSet() {
		return string(p.Override)
	}
	return string(p.Interaction)
}

// ModeInput turns a selector id into the follow-up input every caller validates through the
// one validator; an unknown id is INVALID_VALUE.
func ModeInput(id string) (mode.FollowUpInput, error) {
	smart, none := string(mode.Smart), ""
	switch id {
	case string(mode.Smart):
		return mode.FollowUpInput{InteractionMode: &smart, ExecutionOverride: &none}, nil
	case string(mode.Chat):
		chat := string(mode.Chat)
		return mode.FollowUpInput{InteractionMode: &chat}, nil
	}
	if o := mode.Override(id); o.IsSet() && o.Valid() {
		return mode.FollowUpInput{InteractionMode: &smart, ExecutionOverride: &id}, nil
	}
	return mode.FollowUpInput{}, errs.Invalid("modeId", id, ModeIDs())
}

// checkExternal refuses Chat for a session on an external agent, and Smart · Plan for one whose
// agent is known to have no plan mode; the runtime calls it after the one validator, for
// messages and switches alike.
func (r *Runtime) checkExternal(sessionID string, p mode.Preference) error {
	if p.Interaction != mode.Chat && p.Override != mode.Plan {
		return nil
	}
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil || sess.ExternalAgent == "" {
		return err
	}
	if p.Interaction == mode.Chat {
		return errs.New(ChatWithExternalAgent, "Agent", sess.ExternalAgent)
	}
	if r.opts.External == nil {
		return nil
	}
	return refusePlan(r, ExternalSession{SessionID: sessionID, Command: sess.ExternalAgent}, p)
}

// CheckInput validates a message's mode as Send would, without sending it, so a caller can
// refuse Chat for an external agent before starting that agent.
func (r *Runtime) CheckInput(in Input) error {
	current, err := r.opts.Store.ModeInForce(in.SessionID)
	if err != nil {
		return err
	}
	fu, err := mode.ValidateFollowUp(current.Preference, in.Mode)
	if err != nil {
		return err
	}
	return r.checkExternal(in.SessionID, fu.Preference)
}

// runTurn drives a turn with the built-in loop, or on the session's external agent.
func (r *Runtime) runTurn(t *turn) (status, failure string) {
	sess, err := r.opts.Store.GetSession(t.sessionID)
	if err != nil {
		return t.fail(err)
	}
	if sess.ExternalAgent == "" {
		return t.run()
	}
	return r.runExternal(t, sess)
}
