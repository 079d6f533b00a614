// Package eventlog is a session's append-only log as the rest of the backend sees it: one typed
// payload per event type, one Decode, and one Walk that every reader uses (the model history, the
// transcript, ACP replay, the turn boundary, plan exit). Nothing else decodes an event.
//
// A stored entry that cannot be read (bad JSON, a missing identifier, an unknown type) decodes to
// Unreadable, and every Visitor must handle it: readers surface it, never skip it.
//
// These are log types, not broadcast names: what the window receives is a DTO published under a
// name of its own (agent.EventToolDone, agent.EventCleared, …), and the two sets never overlap.
package eventlog

import (
	"encoding/json"

	"agentdesk/backend/display"
	"agentdesk/backend/mode"
)

// Log types: the values of events.type.
const (
	TypeUserMessage      = "message.user"
	TypeAssistantMessage = "message.assistant"
	TypeQueuedMessage    = "message.queued"
	TypeToolResult       = "tool.result"
	TypeDirectTool       = "tool.direct"
	TypeContextCleared   = "context.cleared"
	TypeModeSet          = "mode.set"
	TypePermissionSet    = "permission.set"
)

// Types lists every type a session's log holds, and so every type an import accepts.
var Types = []string{
	TypeUserMessage, TypeAssistantMessage, TypeQueuedMessage, TypeToolResult, TypeDirectTool,
	TypeContextCleared, TypeModeSet, TypePermissionSet, TypeCheckpoint, TypeRestore, TypeReview,
	TypeContextCompacted, TypeWorktreeCopied, TypeWorktreeSetup,
}

// Payload is a decoded entry: one of the event types below, or Unreadable.
type Payload interface {
	visit(v Visitor)
}

// Event is a payload that can be appended to a log; Unreadable cannot.
type Event interface {
	Payload
	LogType() string
}

// UserMessage is the person's message that starts a turn, or steers it (Steer). A Nudge is
// AgentDesk's own word to the model in the user's role (a verified turn reminded to verify): the
// model reads it like any steer, but no reader may show it as the person's.
type UserMessage struct {
	TurnID string `json:"turn_id"`
	Text   string `json:"text"`
	Steer  bool   `json:"steer,omitempty"`
	Nudge  bool   `json:"nudge,omitempty"`
}

// AssistantMessage is what the model answered, with the tool calls it made.
type AssistantMessage struct {
	TurnID    string       `json:"turn_id"`
	Text      string       `json:"text"`
	ToolCalls []CallRecord `json:"tool_calls,omitempty"`
}

// CallRecord is one tool call as the model made it.
type CallRecord struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// QueuedMessage is a message that waits in the turn-boundary queue; Temporary is the
// preference of a one-turn override (never saved).
type QueuedMessage struct {
	MessageID string               `json:"message_id"`
	Text      string               `json:"text"`
	Temporary *mode.ModeSetPayload `json:"temporary,omitempty"`
}

// TemporaryPreference reads the one-turn override through the one decoder, failing closed.
func (m QueuedMessage) TemporaryPreference() *mode.Preference {
	if m.Temporary == nil {
		return nil
	}
	p := mode.DecodePreference(m.Temporary.InteractionMode, m.Temporary.ExecutionOverride).Preference
	return &p
}

// ToolResult is what the model was told of a call, and the gate's verdict that led there.
type ToolResult struct {
	TurnID   string `json:"turn_id"`
	CallID   string `json:"call_id"`
	Name     string `json:"name"`
	Content  string `json:"content"`
	IsError  bool   `json:"is_error"`
	Verdict  string `json:"verdict"`
	Layer    string `json:"layer,omitempty"`
	Code     string `json:"code,omitempty"`
	Approved string `json:"approved,omitempty"` // how the person answered an approval, if asked
	// Display says the result to the person (see display.Message); Answered marks Content as the
	// person's own answer, which is no error to show them.
	Display  *display.Message `json:"display,omitempty"`
	Answered bool             `json:"answered,omitempty"`
}

// DirectTool is a tool the person ran from the composer's form. Its keys are camelCase, as
// earlier releases stored them.
type DirectTool struct {
	CallID  string           `json:"callId"`
	Name    string           `json:"name"`
	Input   json.RawMessage  `json:"input"`
	Output  string           `json:"output"`
	IsError bool             `json:"isError"`
	Code    string           `json:"code,omitempty"`
	Display *display.Message `json:"display,omitempty"`
}

// ContextCleared is /clear: the model's history starts again after it.
type ContextCleared struct{}

// ModeSet is a change of the session's interaction preference; the last one is the mode in
// force (R-PLAN-1, folded by ModeInForce).
type ModeSet mode.ModeSetPayload

// Preference reads the payload through the one decoder, failing closed.
func (m ModeSet) Preference() mode.Decoded {
	return mode.DecodePreference(m.InteractionMode, m.ExecutionOverride)
}

// NewModeSet records p.
func NewModeSet(p mode.Preference) ModeSet {
	return ModeSet{InteractionMode: string(p.Interaction), ExecutionOverride: string(p.Override)}
}

// PermissionSet is a change of the session's permission mode. It is history: the permission in
// force is the session's column.
type PermissionSet struct {
	PermissionMode string `json:"permission_mode"`
}

// Unreadable is a stored entry that could not be decoded. It keeps where it is and why, so
// readers can show it and doctor can report it.
type Unreadable struct {
	Seq    int64  `json:"seq"`
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

func (UserMessage) LogType() string      { return TypeUserMessage }
func (AssistantMessage) LogType() string { return TypeAssistantMessage }
func (QueuedMessage) LogType() string    { return TypeQueuedMessage }
func (ToolResult) LogType() string       { return TypeToolResult }
func (DirectTool) LogType() string       { return TypeDirectTool }
func (ContextCleared) LogType() string   { return TypeContextCleared }
func (ModeSet) LogType() string          { return TypeModeSet }
func (PermissionSet) LogType() string    { return TypePermissionSet }

// Encode is the stored form of an event.
func Encode(e Event) ([]byte, error) {
	return json.Marshal(e)
}
