package agent

import (
	"encoding/json"
	"strings"
	"sync"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// extTurn is a turn running on an external agent. It records the conversation in the session
// log as the built-in loop does (message.user, message.assistant with the agent's tool calls,
// tool.result), so transcripts, replay and export read it the same way. Every permission
// request and file-system call of the agent passes AgentDesk's gate (external_gate.go).
type extTurn struct {
	t       *turn
	command string

	mu    sync.Mutex
	text  strings.Builder     // agent text since the last record
	calls map[string]*extCall // every call the agent reported in this turn
	order []string            // open calls in report order
	err   error               // the first failure to record, reported when the turn ends
	// cleared are the files the gate or the person let one of the agent's own calls change;
	// the agent's fs/write_text_file of that change is then not asked about a second time.
	cleared map[string]bool
	fsCalls int  // file-system calls shown as cards, for their ids
	asked   bool // a session/request_permission arrived in this turn
}

// extCall is what is known of one of the agent's calls: its first report merged with every
// later one, including the tool call inside its permission request.
type extCall struct {
	external.ToolCall
	name     string // its short title, as shown and recorded
	open     bool
	recorded bool   // its call is in the log (once it is described fully, or ends)
	output   string // the last output reported
	verdict  string // the gate's, or external.Verdict for a call the agent ran on its own
	layer    string
	code     string
	approved string // how the person answered, when asked
	shown    string // the description its card shows now
	before   int64  // the checkpoint taken when it was reported, for what it changed
	around   bool   // the workspace is snapshotted around it
}

// changesFiles reports the kinds of call that may change files, and those the agent did not
// classify: the workspace is snapshotted around them, since an agent that does not ask and
// sends no diff is otherwise silent about what it changed.
func changesFiles(kind string) bool {
	switch kind {
	case "read", "search", "think", "fetch", "switch_mode":
		return false
	}
	return true
}

// Text streams the agent's words as turn.delta and keeps them for the log.
func (x *extTurn) Text(chunk string) {
	x.mu.Lock()
	x.text.WriteString(chunk)
	x.mu.Unlock()
	x.t.deltas.add(EventTurnDelta, deltaKey{SessionID: x.t.sessionID, TurnID: x.t.active.turnID}, chunk)
}

// ToolCall records the text so far with the call, as a model message with a tool call would be,
// and shows the call's card. A call reported again is an update.
func (x *extTurn) ToolCall(c external.ToolCall) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.openLocked(c)
}

// openLocked starts a call not seen before and merges a known one; it returns the call.
func (x *extTurn) openLocked(c external.ToolCall) *extCall {
	if known, ok := x.calls[c.ID]; ok || c.ID == "" {
		x.updateLocked(c)
		return known
	}
	call := &extCall{ToolCall: c, open: true, verdict: external.Verdict, layer: external.Verdict}
	call.name = c.ShortTitle()
	if len(call.Input) == 0 {
		call.Input = json.RawMessage("{}")
	}
	x.calls[c.ID] = call
	x.order = append(x.order, c.ID)
	x.t.deltas.flush()
	// The words so far come before the call; the call itself is recorded once it is described
	// fully (its permission request) or ends, so the log — and every reload — shows what the
	// call was, not the bare first report.
	if text := x.takeTextLocked(); text != "" {
		x.recordLocked(eventlog.AssistantMessage{TurnID: x.t.active.turnID, Text: text})
	}
	if changesFiles(c.Kind) {
		call.around, call.before = true, x.t.snapshot(checkpoint.ReasonBeforeTool, c.ID, 0)
	}
	x.publishCardLocked(call, policy.Verdict{})
	x.updateLocked(external.ToolCall{ID: c.ID, Status: c.Status, Output: c.Output})
	return call
}

// recordCallLocked writes the call to the log as it is known now, under its title now, once.
func (x *extTurn) recordCallLocked(call *extCall) {
	if call.recorded {
		return
	}
	call.recorded, call.name = true, call.ShortTitle()
	if external.EmptyInput(call.Input) {
		call.Input = json.RawMessage("{}")
	}
	x.recordLocked(eventlog.AssistantMessage{TurnID: x.t.active.turnID,
		ToolCalls: []eventlog.CallRecord{{ID: call.ID, Name: call.name, Input: call.Input}}})
}

// publishCardLocked shows (or updates) a call's card, with the gate's verdict once it has one.
func (x *extTurn) publishCardLocked(call *extCall, v policy.Verdict) {
	call.shown = call.Describe()
	view := ToolCallView{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: call.ID, Name: call.name,
		Input: call.Input, Summary: call.shown, Verdict: call.verdict, Layer: call.layer,
		Code: call.code, ReasonKey: v.ReasonKey}
	x.t.rt.opts.Publish(EventToolCall, view)
}

// ToolUpdate streams a call's output and ends it when the agent says it finished.
func (x *extTurn) ToolUpdate(c external.ToolCall) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.updateLocked(c)
}

func (x *extTurn) updateLocked(c external.ToolCall) {
	call, ok := x.calls[c.ID]
	if !ok || !call.open {
		return
	}
	call.ToolCall = call.Merge(c)
	// A later report that says what the call does (opencode sends the command only after
	// its first report) updates the card, and the headless line that waits for it.
	if !call.recorded && call.Describe() != call.shown {
		call.name = call.ShortTitle()
		x.publishCardLocked(call, policy.Verdict{})
	}
	if c.Output != "" && c.Output != call.output {
		chunk := c.Output
		if strings.HasPrefix(c.Output, call.output) {
			chunk = c.Output[len(call.output):]
		}
		call.output = c.Output
		x.t.deltas.add(EventToolOutput, deltaKey{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: c.ID}, chunk)
	}
	if c.Status == "completed" || c.Status == "failed" {
		x.closeLocked(call, call.output, c.Status == "failed")
	}
}

// closeLocked records a call's result and publishes tool.result.
func (x *extTurn) closeLocked(call *extCall, output string, isError bool) {
	call.open = false
	for i, o := range x.order {
		if o == call.ID {
			x.order = append(x.order[:i:i], x.order[i+1:]...)
			break
		}
	}
	x.t.deltas.end(deltaKey{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: call.ID})
	x.recordCallLocked(call)
	x.recordLocked(eventlog.ToolResult{TurnID: x.t.active.turnID, CallID: call.ID, Name: call.name,
		Content: output, IsError: isError, Verdict: call.verdict, Layer: call.layer, Code: call.code, Approved: call.approved})
	x.t.rt.opts.Publish(EventToolDone, ToolDoneView{SessionID: x.t.sessionID, TurnID: x.t.active.turnID, CallID: call.ID,
		Name: call.name, Output: output, IsError: isError, Approved: call.approved})
	if call.around {
		x.t.snapshot(checkpoint.ReasonAfterTool, call.ID, call.before)
	}
}

// ModeChanged follows the agent's own mode change where its id is one of ours, like an
// approved plan exit: the preference is saved and session.mode published. Chat is never taken
// from an external agent.
func (x *extTurn) ModeChanged(id string) {
	in, err := external.ModeInput(id)
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
		call := x.calls[id]
		content := call.output
		if brokeOff {
			content = strings.TrimSpace(content + "\n" + "CANCELLED: the turn stopped before this call finished.")
		}
		x.closeLocked(call, content, true)
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
