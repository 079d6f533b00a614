package app

import (
	"encoding/json"
	"strconv"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// Transcript is a page of a session's conversation as the window draws it: the newest page
// when it opens, older ones as the person scrolls up, with what is live (the running turn, the
// queue, pending decisions) on every page.
type Transcript struct {
	SessionID string              `json:"sessionId"`
	Running   string              `json:"running"`
	Queue     []mode.QueueItem    `json:"queue"`
	Pending   []decision.Decision `json:"pending"`
	// Turns are the turns the page's items belong to, and the running one.
	Turns []TurnView `json:"turns"`
	Items []Item     `json:"items"`
	// First and Last are the numbers of the page's first and last log entries (0 when it has
	// none); More says whether the log holds entries before First (after Last, for a page asked
	// with After). The next older page is asked with Before: First.
	First int64 `json:"first"`
	Last  int64 `json:"last"`
	More  bool  `json:"more"`
}

// TranscriptRequest asks for a page of a session's log: Limit entries (DefaultTranscriptPage
// when 0) before Before, or the newest when Before is 0; with After set, those after After.
type TranscriptRequest struct {
	ID     string `json:"id"`
	Before int64  `json:"before,omitempty"`
	After  int64  `json:"after,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// DefaultTranscriptPage is how many log entries a page holds when the request names no limit:
// more than a screen of items, so a session opens with one request.
const DefaultTranscriptPage = 200

// MaxTranscriptPage bounds a page, so no request can ask for a whole long session at once.
const MaxTranscriptPage = 5000

// TurnView is one turn's header: its resolved mode, the router's reason and how it ended.
type TurnView struct {
	ID            string             `json:"id"`
	Prompt        string             `json:"prompt"`
	ExecutionMode mode.ExecutionMode `json:"executionMode"`
	ReasonKey     string             `json:"reasonKey"`
	ReasonArgs    map[string]any     `json:"reasonArgs,omitempty"`
	Status        string             `json:"status"`
	Error         string             `json:"error"`
	Temporary     bool               `json:"temporary"`
	CreatedAt     time.Time          `json:"createdAt"`
}

// Item is one entry of the timeline; Type says which fields are set.
type Item struct {
	Type              string               `json:"type"`
	TurnID            string               `json:"turnId"`
	Text              string               `json:"text,omitempty"`
	Steer             bool                 `json:"steer,omitempty"`
	CallID            string               `json:"callId,omitempty"`
	Name              string               `json:"name,omitempty"`
	Input             json.RawMessage      `json:"input,omitempty"`
	Output            string               `json:"output,omitempty"`
	IsError           bool                 `json:"isError,omitempty"`
	Verdict           string               `json:"verdict,omitempty"`
	Layer             string               `json:"layer,omitempty"`
	Code              string               `json:"code,omitempty"`
	Approved          string               `json:"approved,omitempty"`
	InteractionMode   mode.InteractionMode `json:"interactionMode,omitempty"`
	ExecutionOverride mode.Override        `json:"executionOverride,omitempty"`
	// ModeReason says why a mode item's change happened, when the person did not make it
	// (mode.ReasonPlanApproved: an approved plan's exit).
	ModeReason string `json:"modeReason,omitempty"`
	// PermissionMode is a permission item's new permission mode (ask, auto, full).
	PermissionMode string `json:"permissionMode,omitempty"`
	// Seq is the number of the log entry the item starts at; LogType names the type of an entry
	// that could not be read (type "unreadable").
	Seq     int64  `json:"seq,omitempty"`
	LogType string `json:"logType,omitempty"`
	// Display says Output to the person; Answered marks Output as the person's own answer.
	Display  *display.Message `json:"display,omitempty"`
	Answered bool             `json:"answered,omitempty"`
	// Checkpoint, Restore and Review are set on items of those types (transcript_checkpoints.go).
	Checkpoint *agent.CheckpointView `json:"checkpoint,omitempty"`
	Restore    *RestoreItem          `json:"restore,omitempty"`
	Review     *ReviewItem           `json:"review,omitempty"`
	// Compacted is set on items of type "compacted" (transcript_compact.go).
	Compacted *CompactedItem `json:"compacted,omitempty"`
	// WorktreeCopied and WorktreeSetup are set on items of those types (worktree_setup.go).
	WorktreeCopied *WorktreeCopiedItem `json:"worktreeCopied,omitempty"`
	WorktreeSetup  *WorktreeSetupItem  `json:"worktreeSetup,omitempty"`
}

// Transcript reads a page of the timeline from the session's log, with the turns it names.
func (f *Sessions) Transcript(req TranscriptRequest) (Transcript, error) {
	if req.Limit == 0 {
		req.Limit = DefaultTranscriptPage
	}
	if req.Limit < 0 || req.Limit > MaxTranscriptPage {
		return Transcript{}, f.s.fail(errs.Invalid("limit", strconv.Itoa(req.Limit), []string{"1–" + strconv.Itoa(MaxTranscriptPage)}))
	}
	page, err := f.s.Store.LogPage(req.ID, store.LogRange{Before: req.Before, After: req.After, Limit: req.Limit})
	if err != nil {
		return Transcript{}, f.s.fail(err)
	}
	items, err := f.pageItems(req.ID, page.Records)
	if err != nil {
		return Transcript{}, f.s.fail(err)
	}
	q, err := f.s.Store.Queue(req.ID)
	if err != nil {
		return Transcript{}, f.s.fail(err)
	}
	out := Transcript{SessionID: req.ID, Queue: q.Items(), Pending: f.s.Decisions.Pending(req.ID), Items: items, More: page.More}
	if n := len(page.Records); n > 0 {
		out.First, out.Last = page.Records[0].Seq, page.Records[n-1].Seq
	}
	out.Running, _ = f.s.Runtime.Running(req.ID)
	if out.Turns, err = f.pageTurns(req.ID, items, out.Running); err != nil {
		return Transcript{}, f.s.fail(err)
	}
	f.s.startAgent(req.ID) // the session is open: its agent starts now, not at the first prompt
	out.Pending = orEmpty(out.Pending)
	return out, nil
}

// resultScan bounds how many later tool results a page reads to complete its calls.
const resultScan = 5000

// pageItems turns a page of the log into items; a call whose result was recorded after the
// page gets it from there, so a card never shows as unfinished for want of the next page.
func (f *Sessions) pageItems(sessionID string, log []eventlog.Record) ([]Item, error) {
	tl := timeline(log)
	open := map[string]bool{}
	for id, i := range tl.calls {
		if !tl.resulted[i] {
			open[id] = true
		}
	}
	if len(open) == 0 || len(log) == 0 {
		return tl.items, nil
	}
	later, err := f.s.Store.ResultsAfter(sessionID, log[len(log)-1].Seq, open, resultScan)
	if err != nil {
		return nil, err
	}
	for _, r := range later {
		tl.ToolResult(r)
	}
	return tl.items, nil
}

// pageTurns reads the turns the items belong to, and the running turn, in order.
func (f *Sessions) pageTurns(sessionID string, items []Item, running string) ([]TurnView, error) {
	ids := []string{}
	seen := map[string]bool{"": true}
	for _, id := range append(itemTurns(items), running) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	turns, err := f.s.Store.TurnsByID(sessionID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]TurnView, len(turns))
	for i, t := range turns {
		out[i] = turnView(t)
	}
	return out, nil
}

func itemTurns(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.TurnID
	}
	return out
}

func turnView(t store.Turn) TurnView {
	v := TurnView{ID: t.ID, Prompt: t.Prompt, ExecutionMode: mode.ExecutionMode(t.ExecutionMode), ReasonKey: t.ReasonKey,
		Status: t.Status, Error: t.Error, Temporary: t.Temporary, CreatedAt: t.CreatedAt}
	json.Unmarshal([]byte(t.ReasonArgs), &v.ReasonArgs)
	return v
}

// timeline turns the log into items through the one event-log reader; a tool call and its
// result become one item, and an entry that cannot be read becomes an "unreadable" item. Every
// item carries the number of the entry it starts at, which orders pages and keys the views.
type timelineReader struct {
	eventlog.Ignore
	seq      int64
	items    []Item
	calls    map[string]int // call id -> index of its item
	resulted map[int]bool   // items whose result was read
}

func timeline(log []eventlog.Record) *timelineReader {
	tl := &timelineReader{items: []Item{}, calls: map[string]int{}, resulted: map[int]bool{}}
	for i := range log {
		tl.seq = log[i].Seq
		eventlog.Walk(log[i:i+1], tl)
	}
	return tl
}

func (tl *timelineReader) add(it Item) {
	it.Seq = tl.seq
	tl.items = append(tl.items, it)
}

func (tl *timelineReader) UserMessage(m eventlog.UserMessage) {
	if agent.IsNudge(m) { // AgentDesk's note, not the person's bubble; Text is what the model read
		tl.add(Item{Type: "nudge", TurnID: m.TurnID, Text: m.Text})
		return
	}
	tl.add(Item{Type: "user", TurnID: m.TurnID, Text: m.Text, Steer: m.Steer})
}

func (tl *timelineReader) AssistantMessage(m eventlog.AssistantMessage) {
	if m.Text != "" {
		tl.add(Item{Type: "assistant", TurnID: m.TurnID, Text: m.Text})
	}
	for _, c := range m.ToolCalls {
		tl.calls[c.ID] = len(tl.items)
		tl.add(Item{Type: "tool", TurnID: m.TurnID, CallID: c.ID, Name: c.Name, Input: c.Input})
	}
}

func (tl *timelineReader) ToolResult(r eventlog.ToolResult) {
	i, ok := tl.calls[r.CallID]
	if !ok {
		return
	}
	tl.resulted[i] = true
	it := &tl.items[i]
	it.Output, it.IsError, it.Verdict, it.Layer, it.Code, it.Approved = r.Content, r.IsError, r.Verdict, r.Layer, r.Code, r.Approved
	it.Display, it.Answered = r.Display, r.Answered
}

func (tl *timelineReader) DirectTool(d eventlog.DirectTool) {
	tl.add(Item{Type: "direct", CallID: d.CallID, Name: d.Name, Input: d.Input, Output: d.Output, IsError: d.IsError,
		Code: d.Code, Display: d.Display})
}

// PermissionSet is a change of the session's permission mode, shown where it happened.
func (tl *timelineReader) PermissionSet(m eventlog.PermissionSet) {
	tl.add(Item{Type: "permission", PermissionMode: m.PermissionMode})
}

func (tl *timelineReader) ModeSet(m eventlog.ModeSet) {
	tl.add(Item{Type: "mode", InteractionMode: mode.InteractionMode(m.InteractionMode), ExecutionOverride: mode.Override(m.ExecutionOverride),
		ModeReason: m.Reason})
}

func (tl *timelineReader) ContextCleared(eventlog.ContextCleared) {
	tl.add(Item{Type: "cleared"})
}

func (tl *timelineReader) Unreadable(u eventlog.Unreadable) {
	tl.add(Item{Type: "unreadable", Seq: u.Seq, LogType: u.Type})
}
