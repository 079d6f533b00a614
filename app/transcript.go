package app

import (
	"encoding/json"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
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
	// Seq and LogType name an entry of the log that could not be read (type "unreadable").
	Seq     int64  `json:"seq,omitempty"`
	LogType string `json:"logType,omitempty"`
	// Display says Output to the person; Answered marks Output as the person's own answer.
	Display  *tool.Message `json:"display,omitempty"`
	Answered bool          `json:"answered,omitempty"`
	// Checkpoint, Restore and Review are set on items of those types (transcript_checkpoints.go).
	Checkpoint *agent.CheckpointView `json:"checkpoint,omitempty"`
	Restore    *RestoreItem          `json:"restore,omitempty"`
	Review     *ReviewItem           `json:"review,omitempty"`
}

// Transcript rebuilds the timeline from the session's log and turns.
func (f *Sessions) Transcript(req SessionRef) (Transcript, error) {
	log, err := f.s.Store.Log(req.ID)
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
		Turns: make([]TurnView, len(turns)), Items: timeline(log)}
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

// timeline turns the log into items through the one event-log reader; a tool call and its
// result become one item, and an entry that cannot be read becomes an "unreadable" item.
type timelineReader struct {
	eventlog.Ignore
	items []Item
	calls map[string]int // call id -> index of its item
}

func timeline(log []eventlog.Record) []Item {
	tl := &timelineReader{items: []Item{}, calls: map[string]int{}}
	eventlog.Walk(log, tl)
	return tl.items
}

func (tl *timelineReader) UserMessage(m eventlog.UserMessage) {
	tl.items = append(tl.items, Item{Type: "user", TurnID: m.TurnID, Text: m.Text, Steer: m.Steer})
}

func (tl *timelineReader) AssistantMessage(m eventlog.AssistantMessage) {
	if m.Text != "" {
		tl.items = append(tl.items, Item{Type: "assistant", TurnID: m.TurnID, Text: m.Text})
	}
	for _, c := range m.ToolCalls {
		tl.calls[c.ID] = len(tl.items)
		tl.items = append(tl.items, Item{Type: "tool", TurnID: m.TurnID, CallID: c.ID, Name: c.Name, Input: c.Input})
	}
}

func (tl *timelineReader) ToolResult(r eventlog.ToolResult) {
	i, ok := tl.calls[r.CallID]
	if !ok {
		return
	}
	it := &tl.items[i]
	it.Output, it.IsError, it.Verdict, it.Layer, it.Code, it.Approved = r.Content, r.IsError, r.Verdict, r.Layer, r.Code, r.Approved
	it.Display, it.Answered = r.Display, r.Answered
}

func (tl *timelineReader) DirectTool(d eventlog.DirectTool) {
	tl.items = append(tl.items, Item{Type: "direct", CallID: d.CallID, Name: d.Name, Input: d.Input, Output: d.Output, IsError: d.IsError,
		Code: d.Code, Display: d.Display})
}

func (tl *timelineReader) ModeSet(m eventlog.ModeSet) {
	tl.items = append(tl.items, Item{Type: "mode", InteractionMode: m.InteractionMode, ExecutionOverride: m.ExecutionOverride})
}

func (tl *timelineReader) ContextCleared(eventlog.ContextCleared) {
	tl.items = append(tl.items, Item{Type: "cleared"})
}

func (tl *timelineReader) Unreadable(u eventlog.Unreadable) {
	tl.items = append(tl.items, Item{Type: "unreadable", Seq: u.Seq, LogType: u.Type})
}
