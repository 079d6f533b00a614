// Package bus broadcasts domain events to whoever shows them: the Wails window, WebSocket
// clients of `agentdesk serve`, tests.
package bus

import "sync"

// Event is one broadcast: a dotted name such as "sessions.changed" and its JSON-able data.
type Event struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

// Bus fans every event out to every subscriber, synchronously and in publish order.
// Subscribers must not block: a slow transport queues on its own side.
type Bus struct {
	mu   sync.RWMutex
	next int
	subs map[int]func(Event)
}

// New returns an empty bus.
func New() *Bus { return &Bus{subs: map[int]func(Event){}} }

// Publish delivers an event to every current subscriber.
func (b *Bus) Publish(name string, data any) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, fn := range b.subs {
		fn(Event{Name: name, Data: data})
	}
}

// Subscribe registers fn and returns the function that removes it.
func (b *Bus) Subscribe(fn func(Event)) (unsubscribe func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	b.subs[id] = fn
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs, id)
	}
}

// Subscribers counts the current subscribers.
func (b *Bus) Subscribers() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.subs)
}
