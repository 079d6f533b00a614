package agent

import (
	"sync"
	"time"
)

// Interval is the coalescing period for streamed deltas: about 60 updates a second (R-RUN-3).
const Interval = time.Second / 60

// coalescer merges one turn's streamed deltas (model text, tool output) and publishes them at
// most once per Interval. Terminal events flush it first (a call's result ends its stream, the
// turn's end closes it all), so a delta is never published after the event that ends it, and
// nothing buffered is ever dropped.
//
// Two locks, because the flush on the timer's goroutine and the turn's own flush race: mu
// guards the buffer, and out is held from taking a batch until it is published, so batches go
// out whole, in the order they were taken, and a flush returns only once everything added
// before it is out.
type coalescer struct {
	publish func(name string, data any)

	out sync.Mutex // held while a batch is taken and published

	mu      sync.Mutex
	pending []delta
	timer   *time.Timer
	seq     map[deltaKey]uint64 // the last sequence number given per stream
	ended   map[deltaKey]bool   // streams whose terminal event is out: later text is stale
	closed  bool                // the turn has ended: every later add is stale
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

// Delta is the payload of "turn.delta" and "tool.output". Seq numbers the deltas of one stream
// (the turn's text, or one call's output) from 1, so a client drops a stale or repeated one.
type Delta struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	CallID    string `json:"callId,omitempty"`
	Text      string `json:"text"`
	Seq       uint64 `json:"seq"`
}

// Merge makes deltas lossy on the bus: a subscriber that fell behind gets two adjacent deltas
// of one stream as one, under the later sequence number.
func (d Delta) Merge(next any) (any, bool) {
	n, ok := next.(Delta)
	if !ok || n.SessionID != d.SessionID || n.TurnID != d.TurnID || n.CallID != d.CallID || n.Seq <= d.Seq {
		return nil, false
	}
	n.Text = d.Text + n.Text
	return n, true
}

func newCoalescer(publish func(string, any)) *coalescer {
	return &coalescer{publish: publish, seq: map[deltaKey]uint64{}, ended: map[deltaKey]bool{}}
}

// add buffers text for one stream and arms the timer. Text for a stream that has ended, or
// after the turn has, is dropped: it would follow the event that ended it.
func (c *coalescer) add(name string, key deltaKey, text string) {
	if text == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.ended[key] {
		return
	}
	if n := len(c.pending); n > 0 && c.pending[n-1].name == name && c.pending[n-1].key == key {
		c.pending[n-1].text += text
	} else {
		c.pending = append(c.pending, delta{name: name, key: key, text: text})
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(Interval, c.flush)
	}
}

// flush publishes everything buffered, in arrival order, and returns once it is out.
func (c *coalescer) flush() {
	c.out.Lock()
	defer c.out.Unlock()
	for _, d := range c.take() {
		c.publish(d.name, Delta{SessionID: d.key.SessionID, TurnID: d.key.TurnID, CallID: d.key.CallID, Text: d.text, Seq: d.seq})
	}
}

// end flushes and ends one stream (a tool call's output before its result).
func (c *coalescer) end(key deltaKey) {
	c.mu.Lock()
	c.ended[key] = true
	c.mu.Unlock()
	c.flush()
}

// close flushes and ends every stream of the turn (before its turn.ended).
func (c *coalescer) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.flush()
}

type numbered struct {
	delta
	seq uint64
}

func (c *coalescer) take() []numbered {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	out := make([]numbered, len(c.pending))
	for i, d := range c.pending {
		c.seq[d.key]++
		out[i] = numbered{delta: d, seq: c.seq[d.key]}
	}
	c.pending = nil
	return out
}
