package decision

import "sync"

// outbox publishes the registry's events exactly once, in the order they were queued. Events
// are queued in the same critical section as the state change they report, so the order on the
// bus is the order of the changes: a decision's asked always precedes its resolved.
//
// Whoever queues an event drains the queue, unless another goroutine already is; then that one
// publishes it. So nothing is published under the registry lock, and a publish function that
// calls back into the registry never deadlocks: its events follow the one in delivery.
//
// Publishing is not delivering: Bus.Publish only puts the event on each subscriber's queue, so
// neither an ask nor a waiter's release ever waits for a subscriber to handle an event (a
// terminal prompt, a slow window). publish must not block.
type outbox struct {
	publish func(name string, data any)

	mu       sync.Mutex
	items    []outItem
	draining bool
}

// outItem is an event and what must happen only once it is published: releasing the waiter
// after decision.resolved is on the bus means nothing the waiter publishes next can overtake it.
type outItem struct {
	name string
	data any
	then func()
}

func (o *outbox) queue(name string, data any, then func()) {
	o.mu.Lock()
	o.items = append(o.items, outItem{name: name, data: data, then: then})
	o.mu.Unlock()
}

func (o *outbox) drain() {
	if !o.claim() {
		return
	}
	finished := false
	defer func() {
		if !finished { // a subscriber panicked: let the next queue call drain what is left
			o.release()
		}
	}()
	for {
		it, ok := o.next()
		if !ok {
			finished = true
			return
		}
		o.deliver(it)
	}
}

func (o *outbox) claim() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.draining {
		return false
	}
	o.draining = true
	return true
}

func (o *outbox) release() {
	o.mu.Lock()
	o.draining = false
	o.mu.Unlock()
}

// next pops the head. An empty queue ends the drain in the same critical section, so an event
// queued just after cannot be stranded with nobody draining.
func (o *outbox) next() (outItem, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.items) == 0 {
		o.draining = false
		return outItem{}, false
	}
	it := o.items[0]
	o.items[0] = outItem{}
	o.items = o.items[1:]
	return it, true
}

func (o *outbox) deliver(it outItem) {
	if it.then != nil {
		defer it.then() // a waiter is released even if a subscriber panics
	}
	o.publish(it.name, it.data)
}
