package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// extTurn is a turn running on an external agent. It records the conversation in the session
// log as the built-in loop does (message.user, message.assistant with the agent's tool calls,
// tool.result), so transcripts, replay and export read it the same way.
type extTurn struct {
	t       *turn
	command string

	mu       sync.Mutex
	text     strings.Builder   // agent text since the last record
	open     map[string]string // tool calls reported and not finished: id -> title
	output   map[string]string // last output reported per call
	approved map[string]string // how the person answered a call's permission request
	order    []string          // open calls in report order
	err      error             // the first failure to record, reported when the turn ends
	inputs   map[string]json.RawMessage
}

// runExternal runs the turn's prompt on the external agent, then any message that steered the
// turn meanwhile, as further prompts of the same turn.
func (r *Runtime) runExternal(t *turn, command string) (string, string) {
	if r.opts.External == nil {
		return t.fail(errs.New(ExternalAgentUnavailable, "Agent", command))
	}
	x := &extTurn{t: t, command: command, open: map[string]string{}, output: map[string]string{},
		approved: map[string]string{}, inputs: map[string]json.RawMessage{}}
	text := t.text // already in the log: the store records it with the turn
	for {
		stop, err := r.opts.External.Prompt(t.ctx, ExternalPrompt{SessionID: t.sessionID, TurnID: t.active.turnID,
			Command: command, Workspace: t.workspace, Text: text, ModeID: ModeID(t.pref)}, x)
		r.deltas.flush()
		if ferr := x.finish(err != nil || stop == "cancelled" || t.ctx.Err() != nil); ferr != nil && err == nil {
			err = ferr
		}
		switch {
		case t.ctx.Err() != nil || stop == "cancelled":
			return store.TurnCancelled, ""
		case err != nil:
			return t.fail(err)
		}
		if text = drainSteering(t.active); text == "" {
			return store.TurnDone, ""
		}
		if err := t.record(eventlog.UserMessage{TurnID: t.active.turnID, Text: text, Steer: true}); err != nil {
			return t.fail(err)
		}
	}
}

// Text streams the agent's words as turn.delta and keeps them for the log.
func (x *extTurn) Text(chunk string) {
	x.mu.Lock()
	x.text.WriteString(chunk)
	x.mu.Unlock()
	x.t.rt.deltas.add(EventTurnDelta, deltaKey{SessionID: x.t.sessionID, TurnID: x.t.active.turnID}, chunk)
}

// ToolCall records the text so far with the call, as a model message with a tool call would be,
// and shows the call's card.
func (x *extTurn) ToolCall(c ExternalToolCall) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, known := x.open[c.ID]; known || c.ID == "" {
		x.updateLocked(c)
		return
	}
	title := firstNonEmpty(c.Title, c.Kind, "tool")
	input := c.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	x.open[c.ID], x.inputs[c.ID] = title, input
	x.order = append(x.order, c.ID)
	x.t.rt.deltas.flush()
	x.recordLocked(eventlog.AssistantMessage{TurnID: x.t.active.turnID, Text: x.takeTextLocked(),
		ToolCalls: []eventlog.CallRecord{{ID: c.ID, Name: title, Input: input}}})
	x.t.rt.opts.Publish(EventToolCall, ToolCallView{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: c.ID,
		Name: title, Input: input, Summary: summarize(title, input), Verdict: VerdictExternal, Layer: VerdictExternal})
	x.updateLocked(c)
}

// ToolUpdate streams a call's output and ends it when the agent says it finished.
func (x *extTurn) ToolUpdate(c ExternalToolCall) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.updateLocked(c)
}

func (x *extTurn) updateLocked(c ExternalToolCall) {
	title, open := x.open[c.ID]
	if !open {
		return
	}
	if c.Output != "" && c.Output != x.output[c.ID] {
		chunk := c.Output
		if prev := x.output[c.ID]; strings.HasPrefix(c.Output, prev) {
			chunk = c.Output[len(prev):]
		}
		x.output[c.ID] = c.Output
		x.t.rt.deltas.add(EventToolOutput, deltaKey{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: c.ID}, chunk)
	}
	if c.Status == "completed" || c.Status == "failed" {
		x.closeLocked(c.ID, title, x.output[c.ID], c.Status == "failed")
	}
}

// closeLocked records a call's result and publishes tool.result.
func (x *extTurn) closeLocked(id, title, output string, isError bool) {
	delete(x.open, id)
	for i, o := range x.order {
		if o == id {
			x.order = append(x.order[:i:i], x.order[i+1:]...)
			break
		}
	}
	x.t.rt.deltas.flush()
	x.recordLocked(eventlog.ToolResult{TurnID: x.t.active.turnID, CallID: id, Name: title, Content: output,
		IsError: isError, Verdict: VerdictExternal, Layer: VerdictExternal, Approved: x.approved[id]})
	x.t.rt.opts.Publish(EventToolDone, ToolDoneView{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: id,
		Name: title, Output: output, IsError: isError, Approved: x.approved[id]})
}

// Permission turns the agent's request into an approval decision in the one registry: the
// same queue, timeout and first-resolver rules as the built-in gate's.
func (x *extTurn) Permission(ctx context.Context, p ExternalPermission) (string, error) {
	x.ToolCall(p.Call)
	x.mu.Lock()
	title, input := firstNonEmpty(x.open[p.Call.ID], p.Call.Title, p.Call.Kind, "tool"), x.inputs[p.Call.ID]
	x.mu.Unlock()
	if len(input) == 0 {
		input = p.Call.Input
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(x.t.ctx, cancel)
	defer stop()
	_, res, err := x.t.rt.opts.Decisions.Ask(ctx, decision.Request{SessionID: x.t.sessionID, TurnID: x.t.active.turnID,
		Kind: decision.KindApproval, Payload: ApprovalPayload{Tool: title, Kind: firstNonEmpty(p.Call.Kind, "external"),
			Summary: summarize(title, input), Command: commandOf(input)}})
	if err != nil {
		return "", err
	}
	choice := choiceOf(res)
	x.mu.Lock()
	x.approved[p.Call.ID] = string(choice)
	if choice == "" {
		x.approved[p.Call.ID] = string(res.Outcome)
	}
	x.mu.Unlock()
	return ExternalOptionFor(choice, p.Options), nil
}

// choiceOf reads a resolution as an approval choice; "" means the request ended unanswered
// (cancelled or interrupted). A timeout declines, like the built-in gate.
func choiceOf(res decision.Resolution) decision.Choice {
	switch res.Outcome {
	case decision.Answered:
		if a, err := decision.ParseApproval(res.Answer); err == nil {
			return a.Choice
		}
		return decision.Reject
	case decision.Rejected, decision.TimedOut:
		return decision.Reject
	}
	return ""
}

// ExternalOptionFor picks the agent's option for a choice. "Allow for this session" and "Always allow"
// both take the agent's allow_always, which agents keep for the session at most; a rejection
// takes reject_once. Where the agent lacks the kind, the nearest one of the same sense is used.
func ExternalOptionFor(c decision.Choice, options []ExternalOption) string {
	var prefer []string
	switch c {
	case decision.AllowOnce:
		prefer = []string{"allow_once", "allow_always"}
	case decision.AllowSession, decision.AllowAlways:
		prefer = []string{"allow_always", "allow_once"}
	case decision.Reject:
		prefer = []string{"reject_once", "reject_always"}
	}
	for _, kind := range prefer {
		for _, o := range options {
			if o.Kind == kind {
				return o.ID
			}
		}
	}
	return ""
}

// ModeChanged follows the agent's own mode change where its id is one of ours, like an
// approved plan exit: the preference is saved and session.mode published. Chat is never taken
// from an external agent.
func (x *extTurn) ModeChanged(id string) {
	in, err := ModeInput(id)
	if err != nil || id == string(mode.Chat) {
		return
	}
	fu, err := mode.ValidateFollowUp(x.t.pref, in)
	if err != nil || !fu.Save {
		return
	}
	if _, err := x.t.rt.opts.Store.Configure(x.t.sessionID, fu.Preference); err != nil {
		return
	}
	x.t.rt.publishMode(x.t.sessionID, fu.Preference)
	x.t.pref = fu.Preference
}

// finish records the words since the last tool call, and answers calls left open when the
// prompt broke off, so the log stays a well-formed conversation and nothing said is lost.
func (x *extTurn) finish(brokeOff bool) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if text := x.takeTextLocked(); text != "" {
		x.recordLocked(eventlog.AssistantMessage{TurnID: x.t.active.turnID, Text: text})
	}
	for _, id := range append([]string(nil), x.order...) {
		content := x.output[id]
		if brokeOff {
			content = strings.TrimSpace(content + "\n" + "CANCELLED: the turn stopped before this call finished.")
		}
		x.closeLocked(id, x.open[id], content, true)
	}
	err := x.err
	x.err = nil
	return err
}

func (x *extTurn) takeTextLocked() string {
	s := x.text.String()
	x.text.Reset()
	return s
}

func (x *extTurn) recordLocked(e eventlog.Event) {
	if err := x.t.record(e); err != nil && x.err == nil {
		x.err = err
	}
}

// summarize is the card's one line: the title and, when the agent sent it, the input.
func summarize(title string, input json.RawMessage) string {
	if cmd := commandOf(input); cmd != "" {
		return title + ": " + cmd
	}
	if len(input) == 0 || string(input) == "{}" || string(input) == "null" {
		return title
	}
	return title + " " + string(input)
}

// commandOf is the shell command in an agent's raw input, when it has one.
func commandOf(input json.RawMessage) string {
	var in struct {
		Command any `json:"command"`
	}
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	switch c := in.Command.(type) {
	case string:
		return c
	case []any:
		parts := make([]string, 0, len(c))
		for _, p := range c {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
