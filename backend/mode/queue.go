package mode

import (
	"errors"

	"agentdesk/backend/errs"
)

// Queue holds what waits for the next turn boundary while a turn runs (R-MODE-5): mode switches
// and the messages sent after them, in strict FIFO order, so a later message can never overtake a
// queued switch. Permission changes are not queued; they take effect at the next tool call.
//
// Queue is a value: every operation returns a new Queue and never shares its backing array with
// the old one. The store keeps it as rows (one per item, in order) and builds it with QueueOf.
type Queue struct {
	items []QueueItem
}

// QueueItem is either a switch or a message, never both.
type QueueItem struct {
	Switch    *Preference `json:"switch,omitempty"`
	MessageID string      `json:"message_id,omitempty"`
}

// Boundary is what a turn boundary applies: the switches queued before the next message, in
// order, then that message (empty when only switches were queued).
type Boundary struct {
	Switches  []Preference
	MessageID string
}

// QueueOf builds the queue of stored items, in order; each must be exactly one of a switch or
// a message, since dropping one could reorder what waits.
func QueueOf(items []QueueItem) (Queue, error) {
	out := make([]QueueItem, 0, len(items))
	for _, it := range items {
		if (it.Switch == nil) == (it.MessageID == "") {
			return Queue{}, errors.New("mode: queue item must be exactly one of switch or message_id")
		}
		if it.Switch != nil {
			p := *it.Switch
			it.Switch = &p
		}
		out = append(out, it)
	}
	return Queue{items: out}, nil
}

// Len is the number of queued items.
func (q Queue) Len() int { return len(q.items) }

// Items returns a deep copy of the queued items in order.
func (q Queue) Items() []QueueItem {
	out := make([]QueueItem, len(q.items))
	for i, it := range q.items {
		out[i] = it
		if it.Switch != nil {
			p := *it.Switch
			out[i].Switch = &p
		}
	}
	return out
}

// Steerable reports whether a message sent now, in the running turn's mode, may steer that turn.
// Only an empty queue allows it; otherwise the message waits behind what is queued.
func (q Queue) Steerable() bool { return len(q.items) == 0 }

// Enqueue appends a switch. p must be a valid preference (ValidateFollowUp produces one).
func (q Queue) Enqueue(p Preference) (Queue, error) {
	if err := p.Validate(); err != nil {
		return q, err
	}
	return q.with(QueueItem{Switch: &p}), nil
}

// EnqueueMessage appends a message that must wait for the switches queued before it.
func (q Queue) EnqueueMessage(id string) (Queue, error) {
	if id == "" {
		return q, errors.New("mode: queued message needs an id")
	}
	return q.with(QueueItem{MessageID: id}), nil
}

func (q Queue) with(it QueueItem) Queue {
	items := make([]QueueItem, len(q.items), len(q.items)+1)
	copy(items, q.items)
	return Queue{items: append(items, it)}
}

// Drain takes what the boundary applies: every switch up to and including the first queued
// message. Call it again at the boundary that message's turn ends on.
func (q Queue) Drain() (Boundary, Queue) {
	var b Boundary
	for i, it := range q.items {
		if it.Switch != nil {
			b.Switches = append(b.Switches, *it.Switch)
			continue
		}
		b.MessageID = it.MessageID
		return b, Queue{items: append([]QueueItem(nil), q.items[i+1:]...)}
	}
	return b, Queue{}
}

// WithoutSwitch returns the queue without the switch at index i (in Items order): the person
// cancelled it before the boundary. Messages cannot be removed this way.
func (q Queue) WithoutSwitch(i int) (Queue, error) {
	if i < 0 || i >= len(q.items) || q.items[i].Switch == nil {
		return q, errs.New(errs.NotFound, "ID", i)
	}
	items := make([]QueueItem, 0, len(q.items)-1)
	items = append(items, q.items[:i]...)
	return Queue{items: append(items, q.items[i+1:]...)}, nil
}
