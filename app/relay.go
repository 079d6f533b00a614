package app

import (
	"sync"

	"agentdesk/backend/bus"
)

// windowQueue is the window's bus queue, as long as a browser client's.
const windowQueue = 1024

// relay forwards every broadcast to emit on its own bus subscription, so a slow page never
// stalls a turn. A page too slow for its events is disconnected by the bus: relay subscribes
// afresh, then tells the page (bus.overflow) to reload what it shows, which a snapshot taken
// after the new subscription covers. stop ends it.
func relay(b *bus.Bus, emit func(name string, data any)) (stop func()) {
	r := &relayer{bus: b, emit: emit}
	r.mu.Lock()
	r.subscribe()
	r.mu.Unlock()
	return r.stop
}

type relayer struct {
	bus  *bus.Bus
	emit func(string, any)

	mu      sync.Mutex
	sub     *bus.Subscription
	stopped bool
}

// subscribe starts a subscription; the caller holds r.mu.
func (r *relayer) subscribe() {
	r.sub = r.bus.Subscribe(r.forward, bus.Queue(windowQueue))
}

func (r *relayer) forward(e bus.Event) {
	if e.Name != bus.EventOverflow {
		r.emit(e.Name, e.Data)
		return
	}
	r.mu.Lock()
	stopped := r.stopped
	if !stopped {
		r.subscribe()
	}
	r.mu.Unlock()
	if !stopped {
		r.emit(e.Name, e.Data)
	}
}

func (r *relayer) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	r.sub.Close()
}
