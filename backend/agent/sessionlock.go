package agent

import (
	"sync"

	"agentdesk/backend/errs"
)

// sessionLock keeps one session's decisions in order — is a turn running, start, steer, queue,
// cross the boundary — across the store operations they make, without holding the runtime's
// lock.
type sessionLock struct {
	mu    sync.Mutex
	users int // callers holding or waiting for mu; the lock is dropped at zero
}

// enter takes the session's lock for a caller's operation, counted for Shutdown. It refuses
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

// lockSession takes the session's lock; the returned function releases it.
func (r *Runtime) lockSession(sessionID string) (unlock func()) {
	r.mu.Lock()
	l := r.locks[sessionID]
	if l == nil {
		l = &sessionLock{}
		r.locks[sessionID] = l
	}
	l.users++
	r.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		r.mu.Lock()
		if l.users--; l.users == 0 {
			delete(r.locks, sessionID)
		}
		r.mu.Unlock()
	}
}
