package agent

import (
	"sync"

	"context"
	"errors"

	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// TurnUnverified ends a verified turn whose work never passed a verification command.
const TurnUnverified = "unverified"

// VerificationMissed ends a verified turn that never ran a passing verification.
const VerificationMissed errs.Kind = "VERIFICATION_MISSING"

// maxNudges is how often a verified turn is told to verify before it may end unverified.
const maxNudges = 2

// phase is a state of the turn machine: ask the model, run its tool calls, or stop.
type phase int

const (
	phaseModel phase = iota
	phaseTools
	phaseDone
)

// turn is one running turn. Its fields change only on the turn's own goroutine.
type turn struct {
	rt        *Runtime
	ctx       context.Context
	active    *active
	sessionID string
	workspace string
	text      string
	pref      mode.Preference
	exec      mode.ExecutionMode

	deltas   *coalescer          // the turn's streams; closed before turn.ended
	history  conversation        // the model history, read from the log once and kept
	prov     provider.Provider   // chosen at the first model request and kept for the turn
	provMu   sync.Mutex          // guards prov's one write against sampling's reads
	calls    []provider.ToolCall // the model's calls waiting to run
	held     held                // the step's results not committed yet (persist.go)
	gate     store.GateCache     // the gate's inputs, read again only when they changed
	steps    int
	limit    int // the step at which the turn next asks to continue (steps.go)
	nudges   int
	mutated  bool // something changed since the last passing verification
	verified bool // a verification command passed after the last change
	failure  *display.Message
	prepare  func(*turn) error // run first on the turn's goroutine (launchWith)
	resumed  *resumed          // what a turn taken up after a restart waits on (resume.go)
	taskRec  taskRecord        // the session's worktree, read once (worktree.go)
}

// profile is the row of the R-MODE-4 table the turn obeys: what it offers, whether it must
// verify, which prompt sections it gets. Asking the row rather than naming modes keeps the
// table the one place that says what a mode does.
func (t *turn) profile() mode.Profile { return t.exec.Profile() }

// run drives the machine until it stops and says how the turn ended. The message that started
// the turn is already in the log: the store records it with the turn.
func (t *turn) run() (status, failure string) {
	p := phaseModel
	if len(t.calls) > 0 { // resumed in the middle of a step
		p = phaseTools
	}
	for p != phaseDone {
		var err error
		switch p {
		case phaseModel:
			p, err = t.askModel()
		case phaseTools:
			p, err = t.runCalls()
		}
		if err != nil {
			return t.fail(err)
		}
		t.settleResumed()
	}
	if t.profile().RequiresVerification && !t.verified {
		missed := errs.New(VerificationMissed)
		t.failure = displayOf(missed)
		return TurnUnverified, t.rt.errorText(missed)
	}
	return store.TurnDone, ""
}

// fail classifies how the turn stopped: cancelled by the person, or failed. A failure is kept
// as English text for the log and as a message for the person (turn.ended's failure).
func (t *turn) fail(err error) (string, string) {
	if errors.Is(err, errSuspended) {
		return turnSuspended, ""
	}
	if errors.Is(err, context.Canceled) || t.ctx.Err() != nil {
		return store.TurnCancelled, ""
	}
	if errs.KindOf(err) == TooManySteps { // the person stopped it: it failed at nothing
		t.failure = displayOf(err)
		return store.TurnCancelled, t.rt.errorText(err)
	}
	t.failure = displayOf(err)
	return store.TurnFailed, t.rt.errorText(err)
}

// askModel sends the conversation and collects the answer with its tool calls.
func (t *turn) askModel() (phase, error) {
	if err := t.takeStep(); err != nil {
		return phaseDone, err
	}
	if err := t.absorbSteering(); err != nil {
		return phaseDone, err
	}
	if t.prov == nil {
		p, err := t.rt.opts.Provider(t.sessionID)
		if err != nil {
			return phaseDone, err
		}
		t.provMu.Lock() // a sampling request reads it from another goroutine
		t.prov = p
		t.provMu.Unlock()
	}
	req, err := t.request()
	if err != nil {
		return phaseDone, err
	}
	key := deltaKey{SessionID: t.sessionID, TurnID: t.active.turnID}
	resp, err := t.stream(req, func(e provider.Event) {
		if e.Kind == provider.EventTextDelta {
			t.deltas.add(EventTurnDelta, key, e.Text)
		}
	})
	t.deltas.flush()
	if err != nil {
		return phaseDone, err
	}
	if err := t.recordAnswer(resp); err != nil {
		return phaseDone, err
	}
	if len(resp.ToolCalls) > 0 {
		t.calls = resp.ToolCalls
		return phaseTools, nil
	}
	return t.finishOrNudge()
}

// finishOrNudge ends the turn, unless a verified turn has not verified its work yet.
func (t *turn) finishOrNudge() (phase, error) {
	if len(t.active.steer) > 0 { // the person added something: answer it in this turn
		return phaseModel, nil
	}
	if !t.profile().RequiresVerification || t.verified || t.nudges >= maxNudges {
		return phaseDone, nil
	}
	t.nudges++
	return phaseModel, t.record(eventlog.UserMessage{TurnID: t.active.turnID, Text: verifyNudge, Steer: true, Nudge: true})
}

// IsNudge reports whether m is AgentDesk's reminder rather than the person's words. Entries
// written before the log marked nudges are known by their text: no person steers with
// exactly this sentence.
func IsNudge(m eventlog.UserMessage) bool {
	return m.Nudge || (m.Steer && m.Text == verifyNudge)
}

// runCalls runs the model's calls in order; each passes the gate. What the step held back is
// committed when its calls end, however they end.
func (t *turn) runCalls() (phase, error) {
	p, err := t.runEach()
	if cerr := t.commit(); err == nil {
		err = cerr
	}
	return p, err
}

func (t *turn) runEach() (phase, error) {
	calls := t.calls
	t.calls = nil
	for i, c := range calls {
		if t.ctx.Err() != nil {
			t.abandon(calls[i:])
			return phaseDone, t.ctx.Err()
		}
		if err := t.handle(c); err != nil {
			if errors.Is(err, errSuspended) {
				return phaseDone, err // the calls after it run when the turn is taken up
			}
			t.abandon(calls[i+1:])
			return phaseDone, err
		}
	}
	return phaseModel, nil
}

// abandon answers calls that will not run, so the log stays a well-formed conversation.
func (t *turn) abandon(calls []provider.ToolCall) {
	for _, c := range calls {
		t.record(eventlog.ToolResult{TurnID: t.active.turnID, CallID: c.ID, Name: c.Name,
			Content: "CANCELLED: the turn was stopped before this call ran.", IsError: true, Verdict: "cancelled",
			Display: display.Say(notRun)})
	}
}

// absorbSteering adds messages sent to the running turn in its own mode.
func (t *turn) absorbSteering() error {
	for {
		select {
		case text := <-t.active.steer:
			if err := t.record(eventlog.UserMessage{TurnID: t.active.turnID, Text: text, Steer: true}); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// request builds the model request from the log (through the turn's kept history): the tool
// definitions come from the execution mode's profile (the soft layer); Chat sends none at all.
// A request that would outgrow the model's context window compacts the history (compact.go).
func (t *turn) request() (provider.Request, error) {
	msgs, err := t.history.messages(t.rt.opts.Store, t.sessionID)
	if err != nil {
		return provider.Request{}, err
	}
	req := provider.Request{System: systemPrompt(t.workspace, t.exec), Messages: msgs}
	for _, d := range append(t.rt.opts.Tools.Defs(t.profile().Tools), t.mcpDefs()...) {
		req.Tools = append(req.Tools, provider.ToolDef{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema})
	}
	return t.fit(req)
}

func assistantRecord(turnID string, resp provider.Response) eventlog.AssistantMessage {
	m := eventlog.AssistantMessage{TurnID: turnID, Text: resp.Text}
	for _, c := range resp.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, eventlog.CallRecord{ID: c.ID, Name: c.Name, Input: c.Input})
	}
	return m
}

// record appends an event of the turn to the session's log as it happens, after what the step
// held back, in one transaction (persist.go).
func (t *turn) record(e eventlog.Event) error { return t.commit(e) }

// errorText is the English text of an error, as the model and the log receive it.
// A person's rejection reason reaches the model verbatim (R-DEC-4).
func (r *Runtime) errorText(err error) string {
	return string(errs.As(err).Kind) + ": " + r.reasonText(err)
}

// reasonText is err's English sentence (the person's own words for a rejection), without its
// code.
func (r *Runtime) reasonText(err error) string {
	e := errs.As(err)
	text := decision.ToolErrorText(e, func(key string, args map[string]any) string { return r.opts.Messages.T("en", key, args) })
	if e.Kind == errs.Internal && e.Err != nil {
		text += " (" + e.Err.Error() + ")"
	}
	return text
}
