package agent

import (
	"context"
	"slices"
)

// chore is work the runtime runs for a session outside its turns (a new worktree's set-up).
type chore struct{ cancel context.CancelFunc }

// Chore runs work for a session in the background: Shutdown cancels it and waits for it, as it
// does a direct tool run, and Cancel(sessionID) cancels it as it cancels a running turn, so the
// person's stop button stops it too.
func (r *Runtime) Chore(sessionID string, work func(ctx context.Context)) error {
	ctx, done, err := r.beginDirect(context.Background())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &chore{cancel: cancel}
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
