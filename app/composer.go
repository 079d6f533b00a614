package app

import (
	"context"
	"encoding/json"

	"agentdesk/backend/agent"
	"agentdesk/backend/mode"
)

// Composer is the composer's facade: it sends messages, stops turns and runs tools directly.
// It binds intents only; nothing here lets the page run an arbitrary command past the gate.
type Composer struct{ s *Services }

// SendRequest is one message with an optional mode for it.
type SendRequest struct {
	SessionID         string  `json:"sessionId"`
	Text              string  `json:"text"`
	InteractionMode   *string `json:"interactionMode,omitempty"`
	ExecutionOverride *string `json:"executionOverride,omitempty"`
}

// Send starts a turn, steers the running one, or queues the message behind a pending switch; a
// session's first turn names it after the message, in the same unit of work. With no model to
// run it (none set up, or a demo whose folder is gone) nothing is started: the error says what
// is missing, and the composer offers the set-up.
func (f *Composer) Send(req SendRequest) (agent.Ack, error) {
	if err := f.s.canRun(req.SessionID); err != nil {
		return agent.Ack{}, f.s.fail(err)
	}
	ack, err := f.s.Runtime.Send(agent.Input{SessionID: req.SessionID, Text: req.Text, Title: f.s.firstTitle(req.Text),
		Mode: mode.FollowUpInput{InteractionMode: req.InteractionMode, ExecutionOverride: req.ExecutionOverride}})
	if err != nil {
		return agent.Ack{}, f.s.fail(err)
	}
	f.s.publishSession(req.SessionID)
	return ack, nil
}

// CancelResult says whether a running turn was stopped.
type CancelResult struct {
	Cancelled bool `json:"cancelled"`
}

// Cancel stops the session's running turn and answers its pending decisions as cancelled.
func (f *Composer) Cancel(req SessionRef) (CancelResult, error) {
	return CancelResult{Cancelled: f.s.Runtime.Cancel(req.ID)}, nil
}

// UnqueueRequest names a queued switch by its index in the queue.
type UnqueueRequest struct {
	SessionID string `json:"sessionId"`
	Index     int    `json:"index"`
}

// Unqueue cancels a queued switch before the turn boundary applies it.
func (f *Composer) Unqueue(req UnqueueRequest) error {
	return f.s.fail(f.s.Runtime.Unqueue(req.SessionID, req.Index))
}

// Tools lists what the person may run directly in the session's mode (the fn-form).
func (f *Composer) Tools(req SessionRef) ([]ToolView, error) {
	defs, err := f.s.Runtime.ToolDefs(req.ID)
	if err != nil {
		return nil, f.s.fail(err)
	}
	out := make([]ToolView, len(defs))
	for i, d := range defs {
		out[i] = ToolView{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}
	}
	return out, nil
}

// ToolView is a tool as the fn-form builds its form: the name, what it does, its input schema.
type ToolView struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// RunToolRequest is a tool the person runs from the fn-form.
type RunToolRequest struct {
	SessionID string          `json:"sessionId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	// Approved is the person's inline confirmation of a call the gate asks about; it answers
	// nothing the gate denies.
	Approved bool `json:"approved,omitempty"`
}

// RunTool runs one tool directly under the session's permission: where the gate asks, the
// result says NeedsApproval and nothing ran, until the form sends it again Approved.
func (f *Composer) RunTool(req RunToolRequest) (agent.DirectResult, error) {
	out, err := f.s.Runtime.RunDirect(context.Background(), req.SessionID, req.Name, req.Input, req.Approved)
	if err != nil {
		return agent.DirectResult{}, f.s.fail(err)
	}
	return out, nil
}
