package agent

import (
	"context"
	"encoding/json"

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
	// Prompt sends one prompt to the session's agent (starting it when needed) and reports
	// what the agent does to h until the agent answers. The stop reason is ACP's
	// ("end_turn", "cancelled", …). When ctx ends, the agent is told to cancel.
	Prompt(ctx context.Context, p ExternalPrompt, h ExternalHandler) (stopReason string, err error)
}

// ExternalPrompt is one prompt for an external agent.
type ExternalPrompt struct {
	SessionID string
	TurnID    string
	Command   string // the agent's command line, as saved in Settings
	Workspace string
	Text      string
	ModeID    string // the selector id in force (see ModeID); applied where the agent has it
}

// ExternalToolCall is a tool call the agent reports; empty fields were not reported.
type ExternalToolCall struct {
	ID     string
	Title  string
	Kind   string
	Status string // ACP: pending, in_progress, completed, failed
	Input  json.RawMessage
	Output string
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

// ExternalHandler receives what the external agent does during a prompt.
type ExternalHandler interface {
	Text(chunk string)
	ToolCall(c ExternalToolCall)
	ToolUpdate(c ExternalToolCall)
	// Permission asks the person through the decision registry and returns the chosen option
	// id, or "" when the request ended without one (cancelled).
	Permission(ctx context.Context, p ExternalPermission) (optionID string, err error)
	// ModeChanged reports the agent's current mode id.
	ModeChanged(id string)
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

// checkExternal refuses Chat for a session on an external agent; the runtime calls it after
// the one validator, for messages and switches alike.
func (r *Runtime) checkExternal(sessionID string, p mode.Preference) error {
	if p.Interaction != mode.Chat {
		return nil
	}
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil {
		return err
	}
	if sess.ExternalAgent != "" {
		return errs.New(ChatWithExternalAgent, "Agent", sess.ExternalAgent)
	}
	return nil
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
	return r.runExternal(t, sess.ExternalAgent)
}
