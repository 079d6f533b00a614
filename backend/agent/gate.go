package agent

import (
	"sync"

	"agentdesk/backend/errs"
)

// gate keeps one session's decisions in order — is a turn running, start, steer, queue, cross
// the boundary — across the store operations they make, without holding the runtime's lock.
type gate struct {
	mu    sync.Mutex
	users int // callers holding or waiting for mu; the gate is dropped at zero
}

// enter passes the session's gate for a caller's operation, counted for Shutdown. It refuses
// once Shutdown has begun. leave must be called.
func (r *Runtime) enter(sessionID string) (leave func(), err error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, errs.New(ShuttingDown)
	}
	r.work.Add(1)
	r.mu.Unlock()
	unlock := r.lockSession(sessionID)
	return func() {
		unlock()
		r.work.Done()
	}, nil
}

// lockSession passes the session's gate; the returned function opens it again.
func (r *Runtime) lockSession(sessionID string) (unlock func()) {
	r.mu.Lock()
	g := r.gates[sessionID]
	if g == nil {
		g = &gate{}
		r.gates[sessionID] = g
	}
	g.users++
	r.mu.Unlock()
	g.mu.Lock()
	return func() {
		g.mu.Unlock()
		r.mu.Lock()
		if g.users--; g.users == 0 {
			delete(r.gates, sessionID)
		}
		r.mu.Unlock()
	}
}
