package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// A turn that waits on the person outlives the process: when AgentDesk quits, the waiting turn is
// suspended (its decision stays pending), and when it crashes the rows say the same. The next
// start adopts the turn, rebuilds it from the log and asks the same decision again, by the same
// id; the answer carries it on from the call it stopped at.

// resumableKinds are the decisions a turn can wait on again in a new process: those of the
// built-in loop between two steps. An MCP server's form or sampling request went with the
// server's process, and an external agent's request with the agent's.
var resumableKinds = []decision.Kind{decision.KindApproval, decision.KindQuestion, decision.KindPlanReview, decision.KindContinue}

// Resumable reports whether a pending decision of kind k can be taken up by a later start.
func Resumable(k decision.Kind) bool { return slices.Contains(resumableKinds, k) }

// errSuspended ends a turn's goroutine without ending the turn: the app is quitting, and the
// turn's decision waits for the next start.
var errSuspended = errors.New("agent: the turn was suspended for the next start")

// TurnLogUnreadable: a turn taken up after a restart has an entry in its part of the log that
// does not read, so it cannot tell what it was doing; it ends rather than guess.
const TurnLogUnreadable errs.Kind = "TURN_LOG_UNREADABLE"

// turnSuspended is runTurn's status for a suspended turn: nothing is recorded of its end.
const turnSuspended = "suspended"

// Resume takes up the turns a stopped process left waiting on a resumable decision, in one
// session or (sessionID "") in all, and reports how many it took up. Each comes back running,
// waiting on the same decision.
func (r *Runtime) Resume(sessionID string) (int, error) {
	stranded, err := r.Adopt(sessionID)
	if err != nil {
		return 0, err
	}
	return len(stranded), r.TakeUp(stranded)
}

// Adopt claims the stranded turns for this process without running them yet: a start that also
// marks the rest interrupted does so between the two (host.New).
func (r *Runtime) Adopt(sessionID string) ([]store.Stranded, error) {
	kinds := make([]string, len(resumableKinds))
	for i, k := range resumableKinds {
		kinds[i] = string(k)
	}
	return r.opts.Store.AdoptStranded(sessionID, kinds)
}

// TakeUp runs adopted turns from where they stopped.
func (r *Runtime) TakeUp(stranded []store.Stranded) error {
	for _, s := range stranded {
		leave, err := r.enter(s.Turn.SessionID)
		if err != nil {
			return err // shutting down: the adopted turns wait for the next start
		}
		r.resume(s)
		leave()
	}
	return nil
}

// resume rebuilds a stranded turn and runs it from where it stopped. A turn whose log cannot be
// read back ends as failed, with the reason, rather than waiting on what it cannot carry on.
func (r *Runtime) resume(s store.Stranded) {
	p := mode.DecodePreference(s.Turn.InteractionMode, s.Turn.ExecutionOverride).Preference
	exec := mode.ExecutionMode(s.Turn.ExecutionMode)
	st := store.StartedTurn{Turn: s.Turn, Preference: p, Decision: mode.Decision{Mode: exec, ReasonKey: s.Turn.ReasonKey},
		Workspace: s.Workspace}
	d := decision.Decision{ID: s.Decision.ID, SessionID: s.Decision.SessionID, TurnID: s.Decision.TurnID,
		Kind: decision.Kind(s.Decision.Kind), Payload: json.RawMessage(s.Decision.Payload),
		CreatedAt: s.Decision.CreatedAt, Deadline: s.Decision.Deadline}
	r.launchWith(st, func(t *turn) error {
		t.resumed = &resumed{decision: d}
		return t.readBack()
	})
}

// resumed is what a resumed turn takes up: the decision it waited on (until asked again) and the
// checkpoint taken when the turn first began.
type resumed struct {
	mu       sync.Mutex
	decision decision.Decision
	taken    bool
	start    int64
}

// take hands over the waiting decision to the first ask of its kind. An ask of another kind
// means the turn went elsewhere (the gate no longer asks): the old decision is ended first.
func (x *resumed) take(kind decision.Kind) (decision.Decision, bool, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.taken {
		return decision.Decision{}, false, false
	}
	x.taken = true
	return x.decision, x.decision.Kind == kind, true
}

// askResumed waits on the resumed decision when the turn asks one of its kind again; ok is
// false when there is none left to take.
func (t *turn) askResumed(ctx context.Context, kind decision.Kind) (decision.Resolution, bool, error) {
	if t.resumed == nil || !Resumable(kind) {
		return decision.Resolution{}, false, nil
	}
	d, same, ok := t.resumed.take(kind)
	if !ok {
		return decision.Resolution{}, false, nil
	}
	if !same {
		t.dropDecision(d)
		return decision.Resolution{}, false, nil
	}
	res, err := t.rt.opts.Decisions.Reattach(ctx, d)
	return res, true, err
}

// settleResumed ends the resumed decision if the turn went on without asking it again.
func (t *turn) settleResumed() {
	if t.resumed == nil {
		return
	}
	if d, _, ok := t.resumed.take(""); ok {
		t.dropDecision(d)
	}
}

// dropDecision ends a decision the turn no longer waits on as cancelled: announced and resolved
// at once, so every window and client that showed it lets go of it.
func (t *turn) dropDecision(d decision.Decision) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := t.rt.opts.Decisions.Reattach(ctx, d); err != nil {
		t.rt.publishFailure(t.sessionID, err)
	}
}

// readBack rebuilds the turn's state from its part of the log: the steps it took, the calls of
// its last step still without a result (the one that asked among them), and its first checkpoint.
func (t *turn) readBack() error {
	recs, err := t.ownRecords()
	if err != nil {
		return err
	}
	b := &turnReader{turnID: t.active.turnID, results: map[string]bool{}}
	eventlog.Walk(recs, b)
	if b.unreadable != 0 {
		return errs.New(TurnLogUnreadable, "Seq", b.unreadable)
	}
	t.steps, t.nudges, t.resumed.start = b.steps, b.nudges, b.start
	// The turn asks to continue again only when that is what it waited on; otherwise its next
	// pause is where it would have been, a whole number of limits from its start.
	if t.limit = t.rt.stepLimit(); t.resumed.decision.Kind == decision.KindContinue {
		t.limit = t.steps
	} else {
		t.limit = (t.steps/t.limit + 1) * t.limit
	}
	for _, c := range b.last {
		if !b.results[c.ID] {
			t.calls = append(t.calls, provider.ToolCall{ID: c.ID, Name: c.Name, Input: c.Input})
		}
	}
	return nil
}

// ownRecords reads the log back, a page at a time from its end, to the message that began the
// turn: the turn's own entries, in order.
func (t *turn) ownRecords() ([]eventlog.Record, error) {
	var out []eventlog.Record
	before := int64(0)
	for {
		page, err := t.rt.opts.Store.LogPage(t.sessionID, store.LogRange{Before: before, Limit: logBatch})
		if err != nil {
			return nil, err
		}
		out = append(slices.Clone(page.Records), out...)
		for i, rec := range page.Records {
			if m, ok := rec.Payload.(eventlog.UserMessage); ok && m.TurnID == t.active.turnID && !m.Steer {
				return out[i:], nil
			}
		}
		if !page.More || len(page.Records) == 0 {
			return out, nil
		}
		before = page.Records[0].Seq
	}
}

// turnReader gathers what readBack needs from one turn's entries.
type turnReader struct {
	eventlog.Ignore
	turnID  string
	steps   int
	nudges  int
	start   int64
	last    []eventlog.CallRecord
	results map[string]bool
	// unreadable is the first entry that does not read: the turn cannot tell what it did there.
	unreadable int64
}

func (b *turnReader) Unreadable(u eventlog.Unreadable) {
	if b.unreadable == 0 {
		b.unreadable = u.Seq
	}
}

func (b *turnReader) AssistantMessage(m eventlog.AssistantMessage) {
	if m.TurnID == b.turnID {
		b.steps++
		b.last = m.ToolCalls
	}
}

func (b *turnReader) ToolResult(r eventlog.ToolResult) {
	if r.TurnID == b.turnID {
		b.results[r.CallID] = true
	}
}

func (b *turnReader) UserMessage(m eventlog.UserMessage) {
	if m.TurnID == b.turnID && IsNudge(m) {
		b.nudges++
	}
}

func (b *turnReader) Checkpoint(c eventlog.Checkpoint) {
	if c.TurnID == b.turnID && c.Reason == checkpoint.ReasonTurn && b.start == 0 {
		b.start = c.CheckpointID
	}
}
