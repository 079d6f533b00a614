package app

import (
	"sync"

	"agentdesk/backend/agent"
	"agentdesk/backend/decision"
)

// EventSessionState carries one session's live state: whether a turn runs and how many
// decisions wait for the person. The sidebar's running dot and waiting badge follow it.
const EventSessionState = "session.state"

// SessionState is the payload of session.state. Seq orders every state the app reports, in
// events and in session lists alike, so a reader keeps the newest whichever way it arrived (a
// create response can come after the broadcast of the turn it started).
type SessionState struct {
	SessionID string `json:"sessionId"`
	Running   bool   `json:"running"`
	Waiting   int    `json:"waiting"`
	Seq       uint64 `json:"stateSeq"`
}

// liveStates is the state of every session as the runtime's and the registry's events tell it.
// It is fed by the events themselves, in the order they are published, so what a list reports
// never contradicts the event stream: a turn is running from turn.started until turn.ended.
type liveStates struct {
	mu    sync.Mutex
	seq   uint64
	state map[string]SessionState
}

func newLiveStates() *liveStates { return &liveStates{state: map[string]SessionState{}} }

// get is a session's state now; a session nothing happened to is idle, at the current seq.
func (l *liveStates) get(sessionID string) SessionState {
	l.mu.Lock()
	defer l.mu.Unlock()
	if st, ok := l.state[sessionID]; ok {
		return st
	}
	return SessionState{SessionID: sessionID, Seq: l.seq}
}

// update applies one change and returns the new state with its sequence number.
func (l *liveStates) update(sessionID string, change func(*SessionState)) SessionState {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.state[sessionID]
	st.SessionID = sessionID
	change(&st)
	l.seq++
	st.Seq = l.seq
	if !st.Running && st.Waiting == 0 {
		delete(l.state, sessionID) // idle sessions take no room
	} else {
		l.state[sessionID] = st
	}
	return st
}

// publish is what the runtime and the registry publish through: every event goes out as it
// is, and an event that changes a session's live state is followed by session.state. The state
// changes before the event goes out, so whoever reacts to the event reads the new state. The
// registry and the runtime publish each session's events in order, so counting decisions asked
// and resolved is exact where asking the registry at publish time could already be out of date.
func (s *Services) publish(name string, data any) {
	var st SessionState
	changed := true
	switch e := data.(type) {
	case agent.TurnStarted:
		st = s.states.update(e.SessionID, func(x *SessionState) { x.Running = true })
	case agent.TurnEnded:
		st = s.states.update(e.SessionID, func(x *SessionState) { x.Running = false })
	case decision.Decision:
		st = s.states.update(e.SessionID, func(x *SessionState) { x.Waiting++ })
	case decision.Resolved:
		st = s.states.update(e.SessionID, func(x *SessionState) { x.Waiting = max(x.Waiting-1, 0) })
	default:
		changed = false
	}
	s.Bus.Publish(name, data)
	if changed {
		s.Bus.Publish(EventSessionState, st)
	}
	if e, ok := data.(agent.TurnEnded); ok { // its last activity moved it up the list
		s.publishSession(e.SessionID)
	}
}
