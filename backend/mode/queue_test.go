package mode

import (
	"reflect"
	"testing"
)

var (
	toPlan    = Preference{Interaction: Smart, Override: Plan}
	toChat    = Preference{Interaction: Chat}
	toExecute = Preference{Interaction: Smart, Override: Execute}
)

func mustEnqueue(t *testing.T, q Queue, p Preference) Queue {
	t.Helper()
	q, err := q.Enqueue(p)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustMessage(t *testing.T, q Queue, id string) Queue {
	t.Helper()
	q, err := q.EnqueueMessage(id)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQueueDrainsSwitchesInOrder(t *testing.T) {
	q := mustEnqueue(t, mustEnqueue(t, mustEnqueue(t, Queue{}, toPlan), toChat), toExecute)
	b, rest := q.Drain()
	if !reflect.DeepEqual(b.Switches, []Preference{toPlan, toChat, toExecute}) || b.MessageID != "" || rest.Len() != 0 {
		t.Fatalf("Drain = %+v, rest %d", b, rest.Len())
	}
}

func TestQueueMessagesNeverSkipASwitch(t *testing.T) {
	q := mustEnqueue(t, Queue{}, toPlan)
	if q.Steerable() {
		t.Fatal("a message must not steer the running turn while a switch is queued")
	}
	q = mustMessage(t, q, "m1")
	q = mustEnqueue(t, q, toChat)
	q = mustMessage(t, q, "m2")

	first, q := q.Drain()
	if !reflect.DeepEqual(first, Boundary{Switches: []Preference{toPlan}, MessageID: "m1"}) {
		t.Fatalf("first boundary = %+v", first)
	}
	second, q := q.Drain()
	if !reflect.DeepEqual(second, Boundary{Switches: []Preference{toChat}, MessageID: "m2"}) {
		t.Fatalf("second boundary = %+v", second)
	}
	if q.Len() != 0 || !q.Steerable() {
		t.Fatal("queue should be empty")
	}
}

func TestQueueRejectsInvalidSwitches(t *testing.T) {
	if _, err := (Queue{}).Enqueue(Preference{Interaction: Chat, Override: Plan}); err == nil {
		t.Fatal("chat with an override was queued")
	}
	if _, err := (Queue{}).EnqueueMessage(""); err == nil {
		t.Fatal("a message without id was queued")
	}
}

func TestQueueIsAValue(t *testing.T) {
	a := mustEnqueue(t, Queue{}, toPlan)
	b := mustEnqueue(t, a, toChat)
	c := mustEnqueue(t, a, toExecute)
	if a.Len() != 1 || b.Items()[1].Switch.Interaction != Chat || *c.Items()[1].Switch != toExecute {
		t.Fatal("enqueueing on a copy changed another queue")
	}
	items := b.Items()
	items[0].Switch.Override = Debug
	if *b.Items()[0].Switch != toPlan {
		t.Fatal("Items exposed the queue's storage")
	}
}

// QueueOf builds a queue from stored items in their order, copying them; an item that is neither
// a switch nor a message, or both, is refused: dropping it could reorder what waits.
func TestQueueOfKeepsOrderAndRefusesAmbiguousItems(t *testing.T) {
	p := toPlan
	items := []QueueItem{{Switch: &p}, {MessageID: "m1"}, {Switch: &Preference{Interaction: Chat}}}
	q, err := QueueOf(items)
	if err != nil || !reflect.DeepEqual(q.Items(), items) {
		t.Fatalf("%+v %v", q.Items(), err)
	}
	p.Override = Debug
	if *q.Items()[0].Switch != toPlan {
		t.Fatal("QueueOf kept the caller's storage")
	}
	for _, bad := range [][]QueueItem{{{}}, {{Switch: &p, MessageID: "x"}}} {
		if _, err := QueueOf(bad); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
}
