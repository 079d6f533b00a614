package agent

import (
	"sync"
	"time"
)

// Interval is the coalescing period for streamed deltas: about 60 updates a second (R-RUN-3).
const Interval = time.Second / 60

// coalescer merges a turn's streamed deltas (model text, tool output) and publishes them at
// most once per Interval. Terminal events call flush first, so a delta is never published
// after the event that ends it, and nothing buffered is ever dropped.
type coalescer struct {
	publish func(name string, data any)
	mu      sync.Mutex
	pending []delta
	timer   *time.Timer
}

type delta struct {
	name string
	key  deltaKey
	text string
}

// deltaKey identifies one stream inside a turn: the turn's text, or one tool call's output.
type deltaKey struct {
	SessionID string
	TurnID    string
	CallID    string
}

// Delta is the payload of "turn.delta" and "tool.output".
type Delta struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	CallID    string `json:"callId,omitempty"`
	Text      string `json:"text"`
}

func newCoalescer(publish func(string, any)) *coalescer {
	return &coalescer{publish: publish}
}

// add buffers text for one stream and arms the timer.
func (c *coalescer) add(name string, key deltaKey, text string) {
	if text == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.pending); n > 0 && c.pending[n-1].name == name && c.pending[n-1].key == key {
		c.pending[n-1].text += text
	} else {
		c.pending = append(c.pending, delta{name: name, key: key, text: text})
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(Interval, c.flush)
	}
}

// flush publishes everything buffered, in arrival order.
func (c *coalescer) flush() {
	c.mu.Lock()
	out := c.pending
	c.pending = nil
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.mu.Unlock()
	for _, d := range out {
		c.publish(d.name, Delta{SessionID: d.key.SessionID, TurnID: d.key.TurnID, CallID: d.key.CallID, Text: d.text})
	}
}
