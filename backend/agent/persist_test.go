package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// committed reads, through a second store on the same file (as another process would), what
// the log holds now.
type committed struct {
	t       *testing.T
	st      *store.Store
	session string
}

func (c committed) log() []eventlog.Record {
	log, err := c.st.Log(c.session)
	if err != nil {
		c.t.Errorf("second store: %v", err)
	}
	return log
}

// holds reports whether the log holds the model's call and, with result, the call's result.
func (c committed) holds(callID string, result bool) bool {
	for _, r := range c.log() {
		switch e := r.Payload.(type) {
		case eventlog.AssistantMessage:
			if !result && slices.ContainsFunc(e.ToolCalls, func(cr eventlog.CallRecord) bool { return cr.ID == callID }) {
				return true
			}
		case eventlog.ToolResult:
			if result && e.CallID == callID {
				return true
			}
		}
	}
	return false
}

// Every announcement of a step shows what is already committed: when a card, a result, a
// decision or the turn's end reaches the bus, a second store on the same file already reads
// it — checked as each is published, before any subscriber could see it. The answer and the
// results of its reads go in one transaction; the write that follows is announced only after
// them, and asks the person on a log that holds them.
func TestAnnouncedStepsAreCommitted(t *testing.T) {
	h := runAnnouncedStep(t, time.Minute) // a slow machine must not split the step
	assertOneCommit(t, h.st, h.session, "the answer and its three reads")
}

// Past holdLimit, what is held is committed at once: every entry in its own transaction here,
// and still each one before it is announced.
func TestHeldEntriesWaitAtMostHoldLimit(t *testing.T) {
	h := runAnnouncedStep(t, 0)
	all, _ := h.st.Events(h.session)
	rows := slices.DeleteFunc(all, func(r store.Event) bool {
		return r.Type != eventlog.TypeAssistantMessage && r.Type != eventlog.TypeToolResult
	})
	if len(rows) != 6 {
		t.Fatalf("%d answers and results", len(rows))
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].CreatedAt.Equal(rows[i-1].CreatedAt) {
			t.Errorf("%s and %s were held together past the limit", rows[i-1].Type, rows[i].Type)
		}
	}
}

// runAnnouncedStep runs a turn of one step with three reads and a write the person approves,
// with the given hold limit, and checks every announcement against a second store.
func runAnnouncedStep(t *testing.T, limit time.Duration) *harness {
	defer func(was time.Duration) { holdLimit = was }(holdLimit)
	holdLimit = limit
	var mu sync.Mutex
	var seen []string
	var c committed
	check := func(name string, data any) {
		mu.Lock()
		defer mu.Unlock()
		switch v := data.(type) {
		case ToolCallView:
			if !c.holds(v.CallID, false) {
				t.Errorf("the card of %s (%s) was announced before its call was committed", v.CallID, v.Name)
			}
			seen = append(seen, name+" "+v.Name)
		case ToolDoneView:
			if !c.holds(v.CallID, true) {
				t.Errorf("the result of %s (%s) was announced before it was committed", v.CallID, v.Name)
			}
			seen = append(seen, name+" "+v.Name)
		case decision.Decision:
			results := 0
			for _, r := range c.log() {
				if _, ok := r.Payload.(eventlog.ToolResult); ok {
					results++
				}
			}
			if results != 3 {
				t.Errorf("the person was asked with %d of the 3 earlier results committed", results)
			}
			seen = append(seen, name)
		case TurnEnded:
			turns, _ := c.st.Turns(c.session)
			if len(turns) != 1 || turns[0].Status != store.TurnDone {
				t.Errorf("turn.ended announced with the turn committed as %+v", turns)
			}
			seen = append(seen, name)
		}
	}
	h := newHarness(t, script(
		`{"text":"Looking first.","tool_calls":[{"name":"read","input":{"path":"a.txt"}},{"name":"grep","input":{"pattern":"hello"}},`+
			`{"name":"read","input":{"path":"missing.txt"}},{"name":"write","input":{"path":"b.txt","content":"x"}}]}`,
		`{"text":"Done."}`), harnessOpts{permission: "ask", published: check})
	os.WriteFile(filepath.Join(h.workspace, "a.txt"), []byte("hello\n"), 0o644)
	second, err := store.Open(h.rt.opts.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	c = committed{t: t, st: second, session: h.session}
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	h.send("look, then write", mode.FollowUpInput{})

	want := []string{"tool.call read", "tool.done read", "tool.call grep", "tool.done grep", "tool.call read",
		"tool.done read", "tool.call write", decision.EventAsked, "tool.done write", EventTurnEnded}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(seen, want) {
		t.Fatalf("announced in this order:\n  %v\nwant\n  %v", seen, want)
	}
	if _, err := os.Stat(filepath.Join(h.workspace, "b.txt")); err != nil {
		t.Fatalf("the approved write did not run: %v", err)
	}
	return h
}

// assertOneCommit checks that the answer with calls and the three read results after it were
// written in one transaction (one append stamps its events with one time), and the write's
// result in another.
func assertOneCommit(t *testing.T, st *store.Store, session, what string) {
	t.Helper()
	rows, err := st.Events(session)
	if err != nil {
		t.Fatal(err)
	}
	var step []store.Event
	for _, r := range rows {
		if r.Type == eventlog.TypeAssistantMessage || r.Type == eventlog.TypeToolResult {
			step = append(step, r)
		}
	}
	if len(step) != 6 { // answer, read, grep, read, write, final answer
		t.Fatalf("%d answers and results: %+v", len(step), step)
	}
	for _, r := range step[1:4] {
		if !r.CreatedAt.Equal(step[0].CreatedAt) {
			t.Errorf("%s were not written in one transaction: %s at %v, the answer at %v", what, r.Type, r.CreatedAt,
				step[0].CreatedAt)
		}
	}
	if step[4].CreatedAt.Equal(step[0].CreatedAt) {
		t.Errorf("the write's result was committed with the reads: %s", fmt.Sprint(step[4]))
	}
}

// The gate's inputs a turn keeps between calls are as fresh as reading them for every call: a
// deny rule and a narrower permission saved by another process on the folder between two calls
// decide the next one.
func TestAChangeByAnotherProcessDecidesTheNextCall(t *testing.T) {
	h := newHarness(t, script(), harnessOpts{override: "execute", permission: "auto"})
	os.WriteFile(filepath.Join(h.workspace, "main.go"), []byte("package main\n"), 0o644)
	os.WriteFile(filepath.Join(h.workspace, "go.mod"), []byte("module m\n"), 0o644)
	tr := &turn{rt: h.rt, ctx: context.Background(), active: &active{turnID: "t"}, sessionID: h.session,
		workspace: h.workspace, pref: mode.Default, exec: mode.ModeExecute, deltas: newCoalescer(h.rt.opts.Publish)}
	decide := func(name string, input string) policy.Verdict {
		t.Helper()
		g := &gated{call: provider.ToolCall{ID: input, Name: name, Input: json.RawMessage(input)}}
		g.tool, _ = tr.lookup(name)
		g.desc, _ = g.tool.Describe(g.call.Input)
		v, err := tr.evaluate(g)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	other, err := store.Open(h.rt.opts.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if v := decide("read", `{"path":"main.go"}`); v.Decision != policy.DecideAllow {
		t.Fatalf("first read: %+v", v)
	}
	if _, err := other.AddRule(policy.Rule{Effect: policy.Deny, Kind: policy.KindRead, Path: "main.go"}, "settings"); err != nil {
		t.Fatal(err)
	}
	if v := decide("read", `{"path":"main.go"}`); v.Decision != policy.DecideDeny {
		t.Fatalf("a read after another process denied it: %+v", v)
	}
	write := `{"path":"go.mod","content":"module n\n"}`
	if v := decide("write", write); v.Decision != policy.DecideAllow {
		t.Fatalf("a write in auto: %+v", v)
	}
	if _, err := other.SetPermission(h.session, policy.Ask); err != nil {
		t.Fatal(err)
	}
	if v := decide("write", write); v.Decision != policy.DecideAsk {
		t.Fatalf("a write after another process set ask: %+v", v)
	}
}
