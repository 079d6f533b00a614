package app

import (
	"encoding/json"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// Transcript is a session's whole conversation as the window draws it after a (re)load.
type Transcript struct {
	SessionID string              `json:"sessionId"`
	Running   string              `json:"running"`
	Queue     []mode.QueueItem    `json:"queue"`
	Pending   []decision.Decision `json:"pending"`
	Turns     []TurnView          `json:"turns"`
	Items     []Item              `json:"items"`
}

// TurnView is one turn's header: its resolved mode, the router's reason and how it ended.
type TurnView struct {
	ID            string         `json:"id"`
	Prompt        string         `json:"prompt"`
	ExecutionMode string         `json:"executionMode"`
	ReasonKey     string         `json:"reasonKey"`
	ReasonArgs    map[string]any `json:"reasonArgs,omitempty"`
	Status        string         `json:"status"`
	Error         string         `json:"error"`
	Temporary     bool           `json:"temporary"`
	CreatedAt     time.Time      `json:"createdAt"`
}

// Item is one entry of the timeline; Type says which fields are set.
type Item struct {
	Type              string          `json:"type"`
	TurnID            string          `json:"turnId"`
	Text              string          `json:"text,omitempty"`
	Steer             bool            `json:"steer,omitempty"`
	CallID            string          `json:"callId,omitempty"`
	Name              string          `json:"name,omitempty"`
	Input             json.RawMessage `json:"input,omitempty"`
	Output            string          `json:"output,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Verdict           string          `json:"verdict,omitempty"`
	Layer             string          `json:"layer,omitempty"`
	Code              string          `json:"code,omitempty"`
	Approved          string          `json:"approved,omitempty"`
	InteractionMode   string          `json:"interactionMode,omitempty"`
	ExecutionOverride string          `json:"executionOverride,omitempty"`
}

// Transcript rebuilds the timeline from the session's log and turns.
func (f *Sessions) Transcript(req SessionRef) (Transcript, error) {
	events, err := f.s.Store.Events(req.ID)
	if err != nil {
		return Transcript{}, f.s.fail(err)
	}
	turns, err := f.s.Store.Turns(req.ID)
	if err != nil {
		return Transcript{}, f.s.fail(err)
	}
	q, err := f.s.Store.Queue(req.ID)
	if err != nil {
		return Transcript{}, f.s.fail(err)
	}
	out := Transcript{SessionID: req.ID, Queue: q.Items(), Pending: f.s.Decisions.Pending(req.ID),
		Turns: make([]TurnView, len(turns)), Items: timeline(events)}
	out.Running, _ = f.s.Runtime.Running(req.ID)
	f.s.startAgent(req.ID) // the session is open: its agent starts now, not at the first prompt
	if out.Pending == nil {
		out.Pending = []decision.Decision{}
	}
	for i, t := range turns {
		out.Turns[i] = turnView(t)
	}
	return out, nil
}

func turnView(t store.Turn) TurnView {
	v := TurnView{ID: t.ID, Prompt: t.Prompt, ExecutionMode: t.ExecutionMode, ReasonKey: t.ReasonKey,
		Status: t.Status, Error: t.Error, Temporary: t.Temporary, CreatedAt: t.CreatedAt}
	json.Unmarshal([]byte(t.ReasonArgs), &v.ReasonArgs)
	return v
}

// timeline turns log events into items; a tool call and its result become one item.
func timeline(events []store.Event) []Item {
	items := []Item{}
	calls := map[string]int{} // call id -> index of its item
	for _, e := range events {
		switch e.Type {
		case agent.EventUserMessage:
			var m agent.UserMessage
			if json.Unmarshal([]byte(e.Payload), &m) == nil {
				items = append(items, Item{Type: "user", TurnID: m.TurnID, Text: m.Text, Steer: m.Steer})
			}
		case agent.EventAssistantMessage:
			items = appendAssistant(items, calls, e.Payload)
		case agent.EventToolResult:
			items = applyResult(items, calls, e.Payload)
		case agent.EventDirectTool:
			var d agent.DirectResult
			if json.Unmarshal([]byte(e.Payload), &d) == nil {
				items = append(items, Item{Type: "direct", CallID: d.CallID, Name: d.Name, Input: d.Input, Output: d.Output, IsError: d.IsError, Code: d.Code})
			}
		case mode.EventModeSet:
			var m mode.ModeSetPayload
			if json.Unmarshal([]byte(e.Payload), &m) == nil {
				items = append(items, Item{Type: "mode", InteractionMode: m.InteractionMode, ExecutionOverride: m.ExecutionOverride})
			}
		case agent.EventContextCleared:
			items = append(items, Item{Type: "cleared"})
		}
	}
	return items
}

func appendAssistant(items []Item, calls map[string]int, payload string) []Item {
	var m agent.AssistantMessage
	if json.Unmarshal([]byte(payload), &m) != nil {
		return items
	}
	if m.Text != "" {
		items = append(items, Item{Type: "assistant", TurnID: m.TurnID, Text: m.Text})
	}
	for _, c := range m.ToolCalls {
		calls[c.ID] = len(items)
		items = append(items, Item{Type: "tool", TurnID: m.TurnID, CallID: c.ID, Name: c.Name, Input: c.Input})
	}
	return items
}

func applyResult(items []Item, calls map[string]int, payload string) []Item {
	var r agent.ToolResultRecord
	if json.Unmarshal([]byte(payload), &r) != nil {
		return items
	}
	i, ok := calls[r.CallID]
	if !ok {
		return items
	}
	it := &items[i]
	it.Output, it.IsError, it.Verdict, it.Layer, it.Code, it.Approved = r.Content, r.IsError, r.Verdict, r.Layer, r.Code, r.Approved
	return items
}
