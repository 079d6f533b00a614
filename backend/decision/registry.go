package decision

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/google/uuid"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// Options tune a registry. Zero values mean the defaults.
type Options struct {
	// Timeout is read at every ask; use TimeoutSetting for the decision-timeout setting.
	// A result of zero or less (and a nil Timeout) means NoTimeout: the decision waits.
	Timeout func() time.Duration
	// Now stamps CreatedAt and Deadline. The wait itself runs on the real clock.
	Now func() time.Time
	// OnError receives failures no caller is waiting for: a timeout, a cancellation or
	// CancelSession that could not update the row. The decision still ends in memory, and a
	// row left pending is marked interrupted at the next start.
	OnError func(error)
}

// Registry holds every pending decision of the app.
type Registry struct {
	st      Store
	out     *outbox
	timeout func() time.Duration
	now     func() time.Time
	onError func(error)

	// askMu serializes asks so that row order, queue order and asked-event order agree. It is
	// never held while publishing, so a subscriber may ask.
	askMu sync.Mutex

	mu      sync.Mutex
	byID    map[string]*entry
	queues  map[string][]*entry // per session, in ask order
	started bool                // something was asked; Recover would now clobber live rows
}

// entry is one pending decision and the channel its waiter blocks on. The channel holds one
// value so the single winner never blocks handing it over. The timer (nil for no deadline) runs
// from registration: the deadline holds whatever the subscribers do with decision.asked.
type entry struct {
	d     Decision
	done  chan Resolution
	timer *time.Timer
}

// New returns a registry that persists to st and announces through publish (Bus.Publish).
func New(st Store, publish func(name string, data any), opts Options) *Registry {
	if publish == nil {
		publish = func(string, any) {}
	}
	r := &Registry{st: st, out: &outbox{publish: publish}, timeout: opts.Timeout, now: opts.Now,
		onError: opts.OnError, byID: map[string]*entry{}, queues: map[string][]*entry{}}
	if r.timeout == nil {
		r.timeout = func() time.Duration { return NoTimeout }
	}
	if r.now == nil {
		r.now = func() time.Time { return time.Now().UTC() }
	}
	if r.onError == nil {
		r.onError = func(error) {}
	}
	return r
}

// Recover runs once at start, before the first Ask: decisions persisted as pending belong to a
// process that is gone, so they and the running turns they blocked become interrupted
// (R-DEC-6). Nothing is published: no window holds them as live. Once anything was asked it
// refuses, since it would mark live decisions interrupted under their waiters.
func (r *Registry) Recover() (turns, decisions int, err error) {
	r.askMu.Lock()
	defer r.askMu.Unlock()
	r.mu.Lock()
	started := r.started
	r.mu.Unlock()
	if started {
		return 0, 0, errs.New(errs.Internal, "Detail", "decision.Recover after Ask")
	}
	return r.st.InterruptUnfinished()
}

// Ask persists a decision, announces it with decision.asked and blocks until it ends: answered
// or rejected through Resolve, TimedOut at its deadline if it has one (callers treat that as
// declined),
// Cancelled when ctx is done or the session is cancelled. The error is non-nil only when the
// decision could not be asked at all.
func (r *Registry) Ask(ctx context.Context, req Request) (Decision, Resolution, error) {
	d, err := r.newDecision(req)
	if err != nil {
		return Decision{}, Resolution{}, err
	}
	e, err := r.register(d)
	if err != nil {
		return Decision{}, Resolution{}, err
	}
	r.out.drain()
	return d, r.await(ctx, e), nil
}

func (r *Registry) newDecision(req Request) (Decision, error) {
	if req.SessionID == "" {
		return Decision{}, errs.New(errs.InvalidInput, "Field", "sessionId")
	}
	if !req.Kind.Valid() {
		return Decision{}, errs.Invalid("kind", string(req.Kind), names(Kinds))
	}
	payload, err := marshalPayload(req.Payload)
	if err != nil {
		return Decision{}, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Decision{}, errs.Wrap(errs.Internal, err)
	}
	now := r.now()
	d := Decision{ID: id.String(), SessionID: req.SessionID, TurnID: req.TurnID, Kind: req.Kind,
		Payload: payload, CreatedAt: now}
	if wait := r.wait(); wait > 0 {
		d.Deadline = now.Add(wait)
	}
	return d, nil
}

// wait is how long the next decision may wait; NoTimeout (zero) means it has no deadline.
func (r *Registry) wait() time.Duration {
	if d := r.timeout(); d > 0 {
		return d
	}
	return NoTimeout
}

func marshalPayload(p any) (json.RawMessage, error) {
	if p == nil {
		return json.RawMessage("{}"), nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidInput, err, "Field", "payload")
	}
	return b, nil
}

// register persists the decision, then makes it resolvable and queues decision.asked in one
// critical section: it is in the database before anyone can resolve it, and announced in queue
// order.
func (r *Registry) register(d Decision) (*entry, error) {
	r.askMu.Lock()
	defer r.askMu.Unlock()
	row := store.DecisionRow{ID: d.ID, SessionID: d.SessionID, TurnID: d.TurnID, Kind: string(d.Kind),
		Payload: string(d.Payload), CreatedAt: d.CreatedAt, Deadline: d.Deadline}
	if err := r.st.CreateDecision(row); err != nil {
		return nil, err
	}
	return r.enlist(d), nil
}

// enlist makes a persisted decision resolvable and queues decision.asked. Its timer runs to the
// deadline it was asked with: one already past ends it as timed out at once.
func (r *Registry) enlist(d Decision) *entry {
	e := &entry{d: d, done: make(chan Resolution, 1)}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !d.Deadline.IsZero() {
		e.timer = time.AfterFunc(max(d.Deadline.Sub(r.now()), 0), func() { r.endQuietly(d.ID, Resolution{Outcome: TimedOut}) })
	}
	r.byID[d.ID] = e
	r.queues[d.SessionID] = append(r.queues[d.SessionID], e)
	r.started = true
	r.out.queue(EventAsked, d, nil)
	return e
}

// Reattach waits again on a decision a stopped process left pending (its turn resumed): the same
// id and payload, announced again with decision.asked, ending as any other does. Reattaching one
// that is already resolvable here is an INTERNAL error: two waiters would both take its answer.
func (r *Registry) Reattach(ctx context.Context, d Decision) (Resolution, error) {
	r.askMu.Lock()
	r.mu.Lock()
	_, dup := r.byID[d.ID]
	r.mu.Unlock()
	if dup {
		r.askMu.Unlock()
		return Resolution{}, errs.New(errs.Internal, "ID", d.ID, "Detail", "decision reattached twice")
	}
	e := r.enlist(d)
	r.askMu.Unlock()
	r.out.drain()
	return r.await(ctx, e), nil
}

// Suspend lets go of a session's pending decisions of the kinds a later start can take up
// again, leaving their rows pending: their waiters get Suspended, and nothing is published or
// persisted. It is how the app quits without losing a question it asked; the rest are for
// CancelSession. It reports how many it let go.
func (r *Registry) Suspend(sessionID string, keep func(Kind) bool) int {
	r.mu.Lock()
	var held []*entry
	for _, e := range r.queues[sessionID] {
		if keep(e.d.Kind) {
			held = append(held, e)
		}
	}
	for _, e := range held {
		delete(r.byID, e.d.ID)
		r.unqueue(e)
		if e.timer != nil {
			e.timer.Stop()
		}
	}
	r.mu.Unlock()
	for _, e := range held {
		e.done <- Resolution{Outcome: Suspended}
	}
	return len(held)
}

// await blocks until the decision ends: answered, timed out by its timer, or cancelled when
// ctx is done. If some other resolver got there first, that one's resolution is what the waiter
// gets.
func (r *Registry) await(ctx context.Context, e *entry) Resolution {
	select {
	case res := <-e.done:
		return res
	case <-ctx.Done():
		r.endQuietly(e.d.ID, Resolution{Outcome: Cancelled})
	}
	return <-e.done
}

// Resolve ends a pending decision. The first resolver wins; for a decision that already ended,
// later ones get false and no error. An answer that does not fit the decision's kind is
// INVALID_VALUE and leaves it pending; an id never asked is NOT_FOUND. True with an error means
// the decision ended but its row could not be updated.
func (r *Registry) Resolve(id string, res Resolution) (bool, error) {
	ok, err := r.end(id, res)
	if ok || err != nil {
		return ok, err
	}
	if _, err := r.st.Decision(id); err != nil {
		return false, err
	}
	return false, nil
}

// CancelSession ends every pending decision of a session as cancelled (R-RUN-4) and reports
// how many it ended.
func (r *Registry) CancelSession(sessionID string) int {
	n := 0
	for _, d := range r.Pending(sessionID) {
		if r.endQuietly(d.ID, Resolution{Outcome: Cancelled}) {
			n++
		}
	}
	return n
}

// Pending lists a session's pending decisions in ask order; the first occupies the composer.
func (r *Registry) Pending(sessionID string) []Decision {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.queues[sessionID]
	out := make([]Decision, len(q))
	for i, e := range q {
		out[i] = e.d
	}
	return out
}

func (r *Registry) endQuietly(id string, res Resolution) bool {
	ok, err := r.end(id, res)
	if err != nil {
		r.onError(err)
	}
	return ok
}

// end is the one way a decision ends. claim picks the winner under the lock; only the winner
// persists, publishes decision.resolved and releases the waiter.
func (r *Registry) end(id string, res Resolution) (bool, error) {
	e, res, err := r.claim(id, res)
	if e == nil {
		return false, err
	}
	return true, r.settle(e, res)
}

// claim removes the pending entry atomically, after checking the resolution fits its kind.
func (r *Registry) claim(id string, res Resolution) (*entry, Resolution, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byID[id]
	if !ok {
		return nil, res, nil
	}
	res, err := normalize(e.d.Kind, res)
	if err == nil && e.d.Kind == KindElicitation && res.Outcome == Answered {
		err = checkElicitationContent(e.d, res.Answer)
	}
	if err != nil {
		return nil, res, err
	}
	delete(r.byID, id)
	r.unqueue(e)
	if e.timer != nil {
		e.timer.Stop()
	}
	return e, res, nil
}

func (r *Registry) unqueue(e *entry) {
	q := r.queues[e.d.SessionID]
	for i, x := range q {
		if x == e {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) == 0 {
		delete(r.queues, e.d.SessionID)
		return
	}
	r.queues[e.d.SessionID] = q
}

// settle persists before announcing, so whoever reacts to decision.resolved or to the waiter's
// return finds the row already agreeing with them.
func (r *Registry) settle(e *entry, res Resolution) error {
	ok, err := r.st.ResolveDecision(e.d.ID, string(res.Outcome), string(res.Answer))
	if err == nil && !ok {
		err = errs.New(errs.Internal, "ID", e.d.ID, "Detail", "decision row was no longer pending")
	}
	r.out.queue(EventResolved, resolvedEvent(e.d, res), func() { e.done <- res })
	r.out.drain()
	return err
}
