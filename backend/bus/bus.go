// Package bus broadcasts domain events to whoever shows them: the Wails window, WebSocket
// clients of `agentdesk serve`, the ACP server, the terminal of `agentdesk run`, tests.
//
// It is a broker, not a callback list (the shape of crush's pubsub broker): every subscriber has
// its own bounded queue and its own goroutine, and Publish only puts the event on each queue, so
// publishing never runs subscriber code and a slow subscriber never stalls a turn. Two kinds of
// events share the queues:
//
//   - streamed deltas (data implementing [Stream]) are lossy: a delta that continues the
//     stream of the one at the tail of a queue is merged into it, and one that finds the queue
//     more than half full is dropped. Their per-stream sequence numbers let a client notice.
//   - everything else is must-deliver: it is never dropped. A subscriber whose queue is full of
//     them has fallen behind for good; it is disconnected, its queue discarded, and its
//     handler called one last time with [EventOverflow] so it can tell its client to reload.
package bus

import (
	"context"
	"sync"
)

// Event is one broadcast: a dotted name such as "sessions.changed" and its JSON-able data.
type Event struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

// Stream is the data of a lossy event: one piece of a stream of deltas (model text, tool
// output). Merge returns the one event that says both this and next, when next continues the
// same stream; the bus merges only adjacent events, so the order of the others holds.
type Stream interface {
	Merge(next any) (any, bool)
}

// EventOverflow is the last event a disconnected subscriber's handler receives: it fell so far
// behind that must-deliver events would have been lost. Its data is an Overflow.
const EventOverflow = "bus.overflow"

// Overflow is the data of EventOverflow.
type Overflow struct {
	Discarded int `json:"discarded"` // events queued and never delivered
}

// DefaultQueue is a subscriber's queue length unless Subscribe is told otherwise: about four
// seconds of a session streaming at full speed, or hundreds of tool calls.
const DefaultQueue = 256

// Option tunes one subscription.
type Option func(*Subscription)

// Queue sets the subscription's queue length (at least 2: deltas get half of it).
func Queue(n int) Option {
	return func(s *Subscription) { s.limit = max(n, 2) }
}

// Bus fans every event out to every subscriber, in the same order for all of them.
type Bus struct {
	mu     sync.Mutex // held for a whole Publish, so every queue gets events in one order
	subs   map[*Subscription]struct{}
	closed bool
}

// New returns an empty bus.
func New() *Bus { return &Bus{subs: map[*Subscription]struct{}{}} }

// Publish puts an event on every subscriber's queue and returns: it never waits for a
// subscriber. After Close it does nothing.
func (b *Bus) Publish(name string, data any) {
	e := Event{Name: name, Data: data}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if !s.offer(e) {
			delete(b.subs, s) // it overflowed: it gets no more events
		}
	}
}

// Subscribe starts a subscriber: handle runs on the subscription's own goroutine, one event at
// a time, in publish order, until the subscription is closed or overflows.
func (b *Bus) Subscribe(handle func(Event), opts ...Option) *Subscription {
	return b.subscribe(func(es []Event) { handle(es[0]) }, false, opts)
}

// SubscribeBatch is Subscribe for a subscriber that pays per delivery (a WebSocket frame, a
// write to a pipe): handle gets every event queued since its last call, in publish order, and
// while it runs the next batch gathers. Events arrive as soon as with Subscribe; a burst (a
// step's 25 tool calls and their results) comes as one batch instead of one call each. The
// queue's length still bounds what waits: a handler that falls behind overflows as before.
func (b *Bus) SubscribeBatch(handle func([]Event), opts ...Option) *Subscription {
	return b.subscribe(handle, true, opts)
}

func (b *Bus) subscribe(handle func([]Event), batch bool, opts []Option) *Subscription {
	s := &Subscription{bus: b, handle: handle, batch: batch, limit: DefaultQueue, done: make(chan struct{}), behind: make(chan struct{})}
	s.wake = sync.NewCond(&s.mu)
	for _, o := range opts {
		o(s)
	}
	b.mu.Lock()
	if b.closed {
		s.state = stateClosed
	} else {
		b.subs[s] = struct{}{}
	}
	b.mu.Unlock()
	go s.run()
	return s
}

// Subscribers counts the current subscribers.
func (b *Bus) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}

// Sync waits until every subscriber has handled what was published before the call (or ended),
// or ctx ends. Tests use it to read what a subscriber saw; a command uses it before it exits.
func (b *Bus) Sync(ctx context.Context) error {
	for _, s := range b.snapshot() {
		if err := s.Sync(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Close stops taking events, lets every subscriber handle what it has queued, and waits for
// their goroutines to end (or ctx). Later subscriptions end at once.
func (b *Bus) Close(ctx context.Context) error {
	b.mu.Lock()
	b.closed = true
	subs := make([]*Subscription, 0, len(b.subs))
	for s := range b.subs {
		subs = append(subs, s)
		delete(b.subs, s)
	}
	b.mu.Unlock()
	for _, s := range subs {
		s.finish()
	}
	for _, s := range subs {
		select {
		case <-s.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (b *Bus) snapshot() []*Subscription {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*Subscription, 0, len(b.subs))
	for s := range b.subs {
		out = append(out, s)
	}
	return out
}

func (b *Bus) remove(s *Subscription) {
	b.mu.Lock()
	delete(b.subs, s)
	b.mu.Unlock()
}
