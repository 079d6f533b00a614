package agent

import (
	"context"
	"encoding/json"
	"strings"

	"agentdesk/backend/mode"
)

// startLocked records the turn with its resolved execution mode and runs it in the
// background. The caller holds r.mu. A non-temporary change of preference is saved first; a
// temporary one never is (R-MODE-6), whatever the turn's fate.
func (r *Runtime) startLocked(sessionID, text string, fu mode.FollowUp, temporary bool) (Ack, error) {
	if fu.Save {
		if _, err := r.opts.Store.Configure(sessionID, fu.Preference); err != nil {
			return Ack{}, err
		}
		r.publishMode(sessionID, fu.Preference)
	}
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil {
		return Ack{}, err
	}
	d := mode.Resolve(fu.Preference, text)
	row, err := r.opts.Store.StartTurn(sessionID, text, fu.Preference, temporary, d)
	if err != nil {
		return Ack{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &active{turnID: row.ID, pref: fu.Preference, cancel: cancel, steer: make(chan string, 16), done: make(chan struct{})}
	r.running[sessionID] = a
	t := &turn{rt: r, ctx: ctx, active: a, sessionID: sessionID, workspace: sess.Workspace, text: text,
		pref: fu.Preference, exec: d.Mode}
	go r.execute(t, d)
	return Ack{TurnID: row.ID}, nil
}

// execute runs a turn to its end, records how it ended, then crosses the boundary.
func (r *Runtime) execute(t *turn, d mode.Decision) {
	r.opts.Publish(EventTurnStarted, TurnStarted{SessionID: t.sessionID, TurnID: t.active.turnID, Prompt: t.text,
		ExecutionMode: string(d.Mode), ReasonKey: d.ReasonKey, ReasonArgs: d.ReasonArgs,
		Reason: r.opts.Messages.T("en", d.ReasonKey, d.ReasonArgs)})
	status, failure := r.runTurn(t)
	r.deltas.flush()
	r.opts.Store.EndTurn(t.active.turnID, status, failure)
	r.opts.Publish(EventTurnEnded, TurnEnded{SessionID: t.sessionID, TurnID: t.active.turnID, Status: status, Error: failure})
	t.active.cancel()
	r.mu.Lock()
	delete(r.running, t.sessionID)
	if late := drainSteering(t.active); late != "" {
		// Steering that arrived as the turn ended came before anything queued after it.
		r.startLocked(t.sessionID, late, mode.FollowUp{Preference: t.active.pref}, false)
	} else {
		r.boundaryLocked(t.sessionID)
	}
	r.mu.Unlock()
	close(t.active.done)
}

// TurnStarted is the payload of turn.started: the chip of the turn's resolved mode.
type TurnStarted struct {
	SessionID     string         `json:"sessionId"`
	TurnID        string         `json:"turnId"`
	Prompt        string         `json:"prompt"`
	ExecutionMode string         `json:"executionMode"`
	ReasonKey     string         `json:"reasonKey"`
	ReasonArgs    map[string]any `json:"reasonArgs,omitempty"`
	Reason        string         `json:"reason"`
}

// TurnEnded is the payload of turn.ended.
type TurnEnded struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Status    string `json:"status"`
	Error     string `json:"error,omitempty"`
}

func (r *Runtime) boundary(sessionID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, running := r.running[sessionID]; !running {
		r.boundaryLocked(sessionID)
	}
}

// boundaryLocked applies the queued switches in order, then starts the first queued message,
// if any (R-MODE-5, strict FIFO). The caller holds r.mu and no turn runs.
func (r *Runtime) boundaryLocked(sessionID string) {
	q, err := r.opts.Store.Queue(sessionID)
	if err != nil || q.Len() == 0 {
		return
	}
	b, rest := q.Drain()
	for _, p := range b.Switches {
		if _, err := r.opts.Store.Configure(sessionID, p); err == nil {
			r.publishMode(sessionID, p)
		}
	}
	if err := r.opts.Store.SaveQueue(sessionID, rest); err != nil {
		return
	}
	r.publishQueue(sessionID, rest)
	if b.MessageID == "" {
		return
	}
	msg, ok := r.queuedMessage(sessionID, b.MessageID)
	if !ok {
		return
	}
	current, err := r.opts.Store.ModeInForce(sessionID)
	if err != nil {
		return
	}
	fu := mode.FollowUp{Preference: current.Preference}
	if msg.Temporary != nil {
		fu.Preference = *msg.Temporary
	}
	r.startLocked(sessionID, msg.Text, fu, msg.Temporary != nil)
}

func (r *Runtime) queuedMessage(sessionID, id string) (queuedMessage, bool) {
	events, err := r.opts.Store.Events(sessionID)
	if err != nil {
		return queuedMessage{}, false
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != eventQueuedMessage {
			continue
		}
		var m queuedMessage
		if json.Unmarshal([]byte(events[i].Payload), &m) == nil && m.MessageID == id {
			return m, true
		}
	}
	return queuedMessage{}, false
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
