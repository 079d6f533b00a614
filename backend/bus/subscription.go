package bus

import (
	"context"
	"errors"
	"sync"
)

// ErrOverflow is why a subscription ended when it fell behind (Subscription.Err).
var ErrOverflow = errors.New("bus: subscriber too slow, disconnected")

type state int

const (
	stateRunning    state = iota
	stateFinishing        // the bus is closing: handle what is queued, then stop
	stateClosed           // Close: stop after the event in hand, discard the rest
	stateOverflowed       // fell behind: deliver EventOverflow, then stop
)

// Subscription is one subscriber: its queue, its goroutine, and how it ended.
type Subscription struct {
	bus    *Bus
	handle func([]Event) // one event, or for SubscribeBatch all that were queued
	batch  bool
	limit  int
	done   chan struct{}
	behind chan struct{} // closed at the overflow

	mu        sync.Mutex
	wake      *sync.Cond // the goroutine waits here for events, Sync for progress
	queue     []Event
	state     state
	told      bool   // EventOverflow was handed to the handler
	queued    uint64 // events ever put on the queue (merges and drops excluded)
	handled   uint64 // events the handler returned from
	dropped   int    // lossy events dropped for want of room
	discarded int    // queued events thrown away at the overflow
}

// Close ends the subscription: the handler gets nothing after the event (or batch) it may be
// handling now. It does not wait for that one; Done does.
func (s *Subscription) Close() {
	s.mu.Lock()
	if s.state == stateRunning || s.state == stateFinishing {
		s.state, s.queue = stateClosed, nil
	}
	s.wake.Broadcast()
	s.mu.Unlock()
	s.bus.remove(s)
}

// Done is closed when the subscription's goroutine has ended.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Overflowed is closed the moment the subscriber is disconnected for falling behind, while
// its handler may still be busy with an earlier event: a transport can cut a stuck write short.
func (s *Subscription) Overflowed() <-chan struct{} { return s.behind }

// Err is ErrOverflow when the subscriber was disconnected for falling behind, else nil.
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateOverflowed {
		return ErrOverflow
	}
	return nil
}

// Dropped counts the lossy events dropped because the queue was more than half full.
func (s *Subscription) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Sync waits until the handler has handled every event queued before the call, the
// subscription has ended, or ctx ends. Never call it from the handler itself.
func (s *Subscription) Sync(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.wake.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	target := s.queued
	for s.handled < target && !s.ended() {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.wake.Wait()
	}
	return nil
}

func (s *Subscription) ended() bool {
	return s.state == stateClosed || s.state == stateOverflowed
}

// offer queues one event; the caller holds the bus lock, so every queue sees one order. False
// means the subscription leaves the bus.
func (s *Subscription) offer(e Event) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateRunning {
		return false
	}
	if _, lossy := e.Data.(Stream); lossy {
		if s.merge(e) {
			return true
		}
		if len(s.queue) >= s.limit/2 {
			s.dropped++
			return true
		}
	} else if len(s.queue) >= s.limit {
		s.state, s.discarded, s.queue = stateOverflowed, len(s.queue), nil
		close(s.behind)
		s.wake.Broadcast()
		return false
	}
	s.queue = append(s.queue, e)
	s.queued++
	s.wake.Broadcast()
	return true
}

// merge folds a delta into the one at the tail of the queue when it continues that stream.
func (s *Subscription) merge(e Event) bool {
	n := len(s.queue)
	if n == 0 || s.queue[n-1].Name != e.Name {
		return false
	}
	tail, ok := s.queue[n-1].Data.(Stream)
	if !ok {
		return false
	}
	merged, ok := tail.Merge(e.Data)
	if ok {
		s.queue[n-1].Data = merged
	}
	return ok
}

// finish lets the subscription handle what it has queued, then end (the bus is closing).
func (s *Subscription) finish() {
	s.mu.Lock()
	if s.state == stateRunning {
		s.state = stateFinishing
	}
	s.wake.Broadcast()
	s.mu.Unlock()
}

// run is the subscription's goroutine: it hands the events over one at a time, or in batch
// mode everything queued at once.
func (s *Subscription) run() {
	defer close(s.done)
	for {
		es, ok := s.next()
		if !ok {
			return
		}
		s.handle(es)
		s.mu.Lock()
		s.handled += uint64(len(es))
		s.wake.Broadcast()
		s.mu.Unlock()
	}
}

func (s *Subscription) next() ([]Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) == 0 && s.state == stateRunning {
		s.wake.Wait()
	}
	switch {
	case s.state == stateOverflowed && !s.told:
		s.told = true
		return []Event{{Name: EventOverflow, Data: Overflow{Discarded: s.discarded}}}, true
	case s.state == stateOverflowed, s.state == stateClosed, len(s.queue) == 0:
		return nil, false
	}
	if s.batch {
		// The handler owns the batch: the queue starts afresh (and deltas merge into it anew).
		es := s.queue
		s.queue = nil
		return es, true
	}
	e := s.queue[0]
	s.queue[0] = Event{}
	s.queue = s.queue[1:]
	return []Event{e}, true
}
