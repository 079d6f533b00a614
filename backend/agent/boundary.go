package agent

import (
	"context"
	"strings"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// start records the turn (and, when the message changed it, the session's preference and, for
// a first turn, its title) as one operation, then runs it in the background. The caller holds
// the session's lock. A temporary preference is never saved (R-MODE-6), whatever the turn's
// fate.
func (r *Runtime) start(in store.TurnStart) (Ack, error) {
	started, err := r.opts.Store.StartTurn(in)
	if err != nil {
		return Ack{}, err
	}
	if in.Save {
		r.publishMode(in.SessionID, in.Preference)
	}
	return r.launch(started), nil
}

// launch runs a turn the store has just started, in place of the session's turn that just
// ended, if any. The caller holds the session's lock.
func (r *Runtime) launch(st store.StartedTurn) Ack {
	return r.launchWith(st, nil)
}

// launchWith is launch with a step that prepares the turn on its own goroutine before it runs
// (a resumed turn reads itself back from the log); a failing step ends the turn as failed.
func (r *Runtime) launchWith(st store.StartedTurn, prepare func(*turn) error) Ack {
	ctx, cancel := context.WithCancel(r.base)
	a := &active{turnID: st.Turn.ID, pref: st.Preference, cancel: cancel, steer: make(chan string, 16), done: make(chan struct{})}
	r.mu.Lock()
	r.running[st.Turn.SessionID] = a
	r.mu.Unlock()
	t := &turn{rt: r, ctx: ctx, active: a, sessionID: st.Turn.SessionID, workspace: st.Workspace, text: st.Turn.Prompt,
		pref: st.Preference, exec: st.Decision.Mode, deltas: newCoalescer(r.opts.Publish), prepare: prepare}
	// Announced before Send returns, so whatever the caller publishes next (the session list)
	// already sees the turn running.
	d := st.Decision
	r.opts.Publish(EventTurnStarted, TurnStarted{SessionID: t.sessionID, TurnID: st.Turn.ID, Prompt: t.text,
		ExecutionMode: d.Mode, ReasonKey: d.ReasonKey, ReasonArgs: d.ReasonArgs,
		Reason: r.opts.Messages.T("en", d.ReasonKey, d.ReasonArgs)})
	go r.execute(t)
	return Ack{TurnID: st.Turn.ID}
}

// execute runs a turn to its end, records how it ended, then crosses the boundary. The turn
// stays the session's running one until the boundary is crossed, so Wait never sees the gap
// between it and the turn the boundary starts.
func (r *Runtime) execute(t *turn) {
	start, status, failure := r.prepareAndRun(t)
	t.deltas.close()
	if status == turnSuspended {
		r.forget(t.sessionID, t.active)
		close(t.active.done)
		return
	}
	t.snapshot(checkpoint.ReasonTurnEnd, "", start)
	if err := r.opts.Store.EndTurn(t.active.turnID, status, failure); err != nil && errs.KindOf(err) != errs.NotFound {
		r.publishFailure(t.sessionID, err) // NOT_FOUND: a restart beside us marked it interrupted
	}
	r.opts.Publish(EventTurnEnded, TurnEnded{SessionID: t.sessionID, TurnID: t.active.turnID, Status: status, Error: failure,
		Failure: t.failure})
	r.countUnapplied(t)
	t.active.cancel()
	unlock := r.lockSession(t.sessionID)
	err := r.next(t)
	r.forget(t.sessionID, t.active)
	unlock()
	if err != nil {
		r.publishFailure(t.sessionID, err)
	}
	close(t.active.done)
}

// prepareAndRun runs the turn after its preparation, from the checkpoint taken as it began: now,
// or for a resumed turn when it first began. It first waits for the session's chores (a new
// worktree's set-up), so the agent never works beside them.
func (r *Runtime) prepareAndRun(t *turn) (start int64, status, failure string) {
	if err := r.awaitChores(t.ctx, t.sessionID); err != nil {
		status, failure = t.fail(err)
		return 0, status, failure
	}
	release, err := r.slots.acquire(t.ctx, func() int { return ParallelTurns(r.opts.Store) }, func(running, limit int) {
		r.opts.Publish(EventTurnWaiting, TurnWaiting{SessionID: t.sessionID, TurnID: t.active.turnID, Running: running, Limit: limit})
	})
	if err != nil {
		status, failure = t.fail(err)
		return 0, status, failure
	}
	defer release()
	if t.prepare != nil {
		if err := t.prepare(t); err != nil {
			status, failure = t.fail(err)
			return 0, status, failure
		}
	}
	if t.resumed != nil {
		start = t.resumed.start
	} else {
		start = t.snapshot(checkpoint.ReasonTurn, "", 0)
	}
	status, failure = r.runTurn(t)
	return start, status, failure
}

// next starts what follows an ended turn: steering that arrived as it ended, which came before
// anything queued after it, else the queue's next turn. Nothing new starts once Shutdown has
// begun; what is queued waits for the next start.
func (r *Runtime) next(t *turn) error {
	if r.isClosed() {
		return nil
	}
	if late := drainSteering(t.active); late != "" {
		_, err := r.start(store.TurnStart{SessionID: t.sessionID, Prompt: late, Preference: t.active.pref})
		return err
	}
	return r.boundary(t.sessionID)
}

// forget drops an ended turn from the running ones, unless the boundary already put the next
// in its place.
func (r *Runtime) forget(sessionID string, a *active) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running[sessionID] == a {
		delete(r.running, sessionID)
	}
}

func (r *Runtime) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// TurnStarted is the payload of turn.started: the chip of the turn's resolved mode.
type TurnStarted struct {
	SessionID     string             `json:"sessionId"`
	TurnID        string             `json:"turnId"`
	Prompt        string             `json:"prompt"`
	ExecutionMode mode.ExecutionMode `json:"executionMode"`
	ReasonKey     string             `json:"reasonKey"`
	ReasonArgs    map[string]any     `json:"reasonArgs,omitempty"`
	Reason        string             `json:"reason"`
}

// TurnEnded is the payload of turn.ended. Error is the English text the log keeps; Failure says
// it to the person.
type TurnEnded struct {
	SessionID string           `json:"sessionId"`
	TurnID    string           `json:"turnId"`
	Status    string           `json:"status"`
	Error     string           `json:"error,omitempty"`
	Failure   *display.Message `json:"failure,omitempty"`
}

// SessionFailed is the payload of session.failed: what the runtime could not record once a turn
// ended (its end, the boundary after it), with no caller left to return the error to. Nothing
// committed is lost (each operation is one transaction); the next message tries the boundary
// again.
type SessionFailed struct {
	SessionID string         `json:"sessionId"`
	Kind      string         `json:"kind"`
	Args      map[string]any `json:"args,omitempty"`
}

func (r *Runtime) publishFailure(sessionID string, err error) {
	e := errs.As(err)
	r.opts.Publish(EventSessionFailed, SessionFailed{SessionID: sessionID, Kind: string(e.Kind), Args: e.Args})
}

// boundary crosses a turn boundary (R-MODE-5, strict FIFO) as one store operation: the queued
// switches apply in order and the first queued message's turn starts. The caller holds the
// session's lock and no turn runs. What the store could not do is returned, and nothing is
// half applied.
func (r *Runtime) boundary(sessionID string) error {
	q, err := r.opts.Store.Queue(sessionID)
	if err != nil || q.Len() == 0 {
		return err
	}
	b, err := r.opts.Store.ApplyBoundary(sessionID)
	if err != nil {
		return err
	}
	for _, p := range b.Applied {
		r.publishMode(sessionID, p)
	}
	r.publishQueue(sessionID, b.Queue)
	if b.Turn != nil {
		r.launch(*b.Turn)
	}
	if b.Lost != "" {
		return errs.New(QueuedMessageUnreadable, "ID", b.Lost)
	}
	return nil
}

func drainSteering(a *active) string {
	var parts []string
	for {
		select {
		case text := <-a.steer:
			parts = append(parts, text)
		default:
			return strings.Join(parts, "\n\n")
		}
	}
}
