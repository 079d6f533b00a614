package agent

import (
	"context"
	"slices"
)

// chore is work the runtime runs for a session outside its turns (a new worktree's set-up).
type chore struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Chore runs work for a session in the background: Shutdown cancels it and waits for it, as it
// does a direct tool run, and Cancel(sessionID) cancels it as it cancels a running turn, so the
// person's stop button stops it too. A turn of the session waits for it before its first step:
// the agent starts in a worktree its set-up has finished with.
func (r *Runtime) Chore(sessionID string, work func(ctx context.Context)) error {
	ctx, done, err := r.beginDirect(context.Background())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &chore{cancel: cancel, done: make(chan struct{})}
	r.mu.Lock()
	r.chores[sessionID] = append(r.chores[sessionID], c)
	r.mu.Unlock()
	go func() {
		defer done()
		defer r.endChore(sessionID, c)
		work(ctx)
	}()
	return nil
}

func (r *Runtime) endChore(sessionID string, c *chore) {
	c.cancel()
	close(c.done)
	r.mu.Lock()
	defer r.mu.Unlock()
	left := slices.DeleteFunc(r.chores[sessionID], func(o *chore) bool { return o == c })
	if len(left) == 0 {
		delete(r.chores, sessionID)
	} else {
		r.chores[sessionID] = left
	}
}

// cancelChores cancels the session's chores; it reports whether there were any.
func (r *Runtime) cancelChores(sessionID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.chores[sessionID] {
		c.cancel()
	}
	return len(r.chores[sessionID]) > 0
}

// awaitChores waits until the session's chores have ended, or ctx does.
func (r *Runtime) awaitChores(ctx context.Context, sessionID string) error {
	r.mu.Lock()
	pending := slices.Clone(r.chores[sessionID])
	r.mu.Unlock()
	for _, c := range pending {
		select {
		case <-c.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
