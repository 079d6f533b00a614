package bus

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// Every test here ends with no subscriber goroutine left behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// text is a lossy delta of one stream, as the runtime's deltas are.
type text struct {
	stream string
	seq    int
	s      string
}

func (t text) Merge(next any) (any, bool) {
	n, ok := next.(text)
	if !ok || n.stream != t.stream {
		return nil, false
	}
	return text{stream: t.stream, seq: n.seq, s: t.s + n.s}, true
}

// recorder keeps what one subscriber handled.
type recorder struct {
	mu  sync.Mutex
	got []Event
}

func (r *recorder) add(e Event) {
	r.mu.Lock()
	r.got = append(r.got, e)
	r.mu.Unlock()
}

func (r *recorder) names() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.got {
		out = append(out, e.Name)
	}
	return strings.Join(out, " ")
}

func closeBus(t *testing.T, b *Bus) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := b.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func TestPublishReachesSubscribersInOrderUntilClosed(t *testing.T) {
	b := New()
	var r recorder
	sub := b.Subscribe(r.add)
	b.Publish("a", nil)
	b.Publish("b", 1)
	b.Sync(context.Background())
	sub.Close()
	<-sub.Done()
	b.Publish("c", nil)
	if got := r.names(); got != "a b" {
		t.Fatalf("got %q", got)
	}
	if b.Subscribers() != 0 || sub.Err() != nil {
		t.Fatalf("subscribers %d, err %v", b.Subscribers(), sub.Err())
	}
	closeBus(t, b)
}

// A subscriber that never returns stalls neither the publisher nor any other subscriber, and
// it is disconnected — and told so — once must-deliver events would be lost.
func TestSlowSubscriberIsDisconnectedAndToldWithoutStallingOthers(t *testing.T) {
	b := New()
	release := make(chan struct{})
	var slow, fast recorder
	slowSub := b.Subscribe(func(e Event) {
		slow.add(e)
		if e.Name == "first" {
			<-release
		}
	}, Queue(8))
	b.Subscribe(fast.add)
	published := make(chan struct{})
	go func() {
		defer close(published)
		for i := 0; i < 100; i++ {
			name := "tool.result"
			if i == 0 {
				name = "first"
			}
			b.Publish(name, i)
		}
	}()
	select {
	case <-published:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish waited for a slow subscriber")
	}
	b.Sync(context.Background())
	if n := strings.Count(fast.names(), "tool.result"); n != 99 {
		t.Fatalf("the other subscriber got %d of 99", n)
	}
	close(release)
	<-slowSub.Done()
	if slowSub.Err() != ErrOverflow {
		t.Fatalf("err %v", slowSub.Err())
	}
	slow.mu.Lock()
	last := slow.got[len(slow.got)-1]
	slow.mu.Unlock()
	if last.Name != EventOverflow || last.Data.(Overflow).Discarded != 8 {
		t.Fatalf("the slow subscriber was not told: last event %+v (%s)", last, slow.names())
	}
	if b.Subscribers() != 1 {
		t.Fatalf("%d subscribers left", b.Subscribers())
	}
	closeBus(t, b)
}

// Deltas are lossy: adjacent ones of a stream merge, and a backlog drops them rather than
// disconnecting; must-deliver events between them keep their place.
func TestDeltasMergeAndDropButMustDeliverEventsDoNot(t *testing.T) {
	b := New()
	entered, release := make(chan struct{}), make(chan struct{})
	var r recorder
	sub := b.Subscribe(func(e Event) {
		if e.Name == "gate" {
			close(entered)
			<-release
		}
		r.add(e)
	}, Queue(8))
	b.Publish("gate", nil)
	<-entered // the queue is empty again, its handler busy
	for i := 1; i <= 3; i++ {
		b.Publish("delta", text{stream: "a", seq: i, s: fmt.Sprint(i)})
	}
	b.Publish("delta", text{stream: "b", seq: 1, s: "x"})
	b.Publish("tool.result", "r")
	b.Publish("delta", text{stream: "a", seq: 4, s: "4"})
	for i := 0; i < 10; i++ { // the queue is past half: these deltas go
		b.Publish("delta", text{stream: fmt.Sprint("c", i), seq: 1, s: "-"})
	}
	b.Publish("turn.ended", "e") // must-deliver: still room below the full queue
	close(release)
	b.Sync(context.Background())
	if sub.Err() != nil {
		t.Fatalf("disconnected: %v", sub.Err())
	}
	r.mu.Lock()
	var got []string
	for _, e := range r.got {
		if d, ok := e.Data.(text); ok {
			got = append(got, fmt.Sprintf("%s:%s#%d", d.stream, d.s, d.seq))
		} else {
			got = append(got, e.Name)
		}
	}
	r.mu.Unlock()
	want := "gate a:123#3 b:x#1 tool.result a:4#4 turn.ended"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if sub.Dropped() != 10 {
		t.Fatalf("dropped %d deltas, want 10", sub.Dropped())
	}
	closeBus(t, b)
}

// A batch subscriber gets, in one call, everything queued while it handled the last batch, in
// publish order; Sync counts every event of a batch; it still overflows when it falls behind.
func TestSubscribeBatchHandsOverWhatQueuedInOrder(t *testing.T) {
	b := New()
	entered, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var batches []string
	sub := b.SubscribeBatch(func(es []Event) {
		var names []string
		for _, e := range es {
			names = append(names, e.Name)
		}
		mu.Lock()
		batches = append(batches, strings.Join(names, ","))
		mu.Unlock()
		if es[0].Name == "gate" {
			close(entered)
			<-release
		}
	}, Queue(8))
	b.Publish("gate", nil)
	<-entered
	b.Publish("delta", text{stream: "a", seq: 1, s: "1"})
	b.Publish("delta", text{stream: "a", seq: 2, s: "2"}) // merges into the one queued
	b.Publish("tool.call", 1)
	b.Publish("tool.result", 1)
	close(release)
	if err := b.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.Publish("turn.ended", nil)
	b.Sync(context.Background())
	mu.Lock()
	got := strings.Join(batches, " | ")
	mu.Unlock()
	if want := "gate | delta,tool.call,tool.result | turn.ended"; got != want {
		t.Fatalf("batches %q, want %q", got, want)
	}

	// Stuck on a batch, it overflows like any subscriber and is told so in a batch of its own.
	stuck, unstick := make(chan struct{}), make(chan struct{})
	var last []Event
	slow := b.SubscribeBatch(func(es []Event) {
		last = es
		if es[0].Name == "first" {
			close(stuck)
			<-unstick
		}
	}, Queue(4))
	b.Publish("first", nil)
	<-stuck
	for i := 0; i < 5; i++ {
		b.Publish("tool.result", i)
	}
	close(unstick)
	<-slow.Done()
	if slow.Err() != ErrOverflow || len(last) != 1 || last[0].Name != EventOverflow || last[0].Data.(Overflow).Discarded != 4 {
		t.Fatalf("err %v, last batch %+v", slow.Err(), last)
	}
	if sub.Err() != nil {
		t.Fatalf("the keeping-up subscriber was disconnected: %v", sub.Err())
	}
	closeBus(t, b)
}

// Close delivers what each subscriber has queued, then ends every goroutine; publishing
// afterwards is a no-op and a late subscription ends at once.
func TestCloseDrainsQueuesAndEndsEveryGoroutine(t *testing.T) {
	b := New()
	var r recorder
	gate := make(chan struct{})
	b.Subscribe(func(e Event) {
		<-gate
		r.add(e)
	})
	for i := 0; i < 5; i++ {
		b.Publish(fmt.Sprint("e", i), nil)
	}
	go close(gate)
	closeBus(t, b)
	if got := r.names(); got != "e0 e1 e2 e3 e4" {
		t.Fatalf("got %q", got)
	}
	b.Publish("late", nil)
	late := b.Subscribe(r.add)
	<-late.Done()
	if got := r.names(); got != "e0 e1 e2 e3 e4" {
		t.Fatalf("after close: %q", got)
	}
}

// A handler may publish and subscribe: it never runs inside Publish.
func TestHandlerMayPublishWithoutDeadlock(t *testing.T) {
	b := New()
	var r recorder
	b.Subscribe(func(e Event) {
		r.add(e)
		if e.Name == "ping" {
			b.Publish("pong", nil)
		}
	})
	b.Publish("ping", nil)
	deadline := time.Now().Add(5 * time.Second)
	for r.names() != "ping pong" && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := r.names(); got != "ping pong" {
		t.Fatalf("got %q", got)
	}
	closeBus(t, b)
}

func TestSyncHonoursItsContext(t *testing.T) {
	b := New()
	block := make(chan struct{})
	b.Subscribe(func(Event) { <-block })
	b.Publish("stuck", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.Sync(ctx); err == nil {
		t.Fatal("Sync returned while the handler was stuck")
	}
	close(block)
	closeBus(t, b)
}

func BenchmarkPublishFourSubscribers(b *testing.B) {
	bus := New()
	for i := 0; i < 4; i++ {
		bus.Subscribe(func(Event) {})
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		bus.Publish("tool.result", i)
	}
	b.StopTimer()
	bus.Close(context.Background())
}
