package agent

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCoalescerMergesBurstsAndLosesNothing(t *testing.T) {
	var mu sync.Mutex
	var got []Delta
	c := newCoalescer(func(_ string, d any) {
		mu.Lock()
		got = append(got, d.(Delta))
		mu.Unlock()
	})
	key := deltaKey{SessionID: "s", TurnID: "t"}
	var want strings.Builder
	start := time.Now()
	for i := 0; i < 2000; i++ {
		c.add("turn.delta", key, "x")
		want.WriteString("x")
		if i%100 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	elapsed := time.Since(start)
	c.flush()
	mu.Lock()
	defer mu.Unlock()
	var all strings.Builder
	for _, d := range got {
		all.WriteString(d.Text)
	}
	if all.String() != want.String() {
		t.Fatalf("lost text: %d of %d bytes", all.Len(), want.Len())
	}
	// At most one publish per interval, plus the final flush.
	if limit := int(elapsed/Interval) + 2; len(got) > limit {
		t.Fatalf("%d publishes in %v, limit %d", len(got), elapsed, limit)
	}
}

func TestCoalescerKeepsStreamsApartAndInOrder(t *testing.T) {
	var got []string
	c := newCoalescer(func(name string, d any) { got = append(got, name+":"+d.(Delta).CallID+":"+d.(Delta).Text) })
	c.add("turn.delta", deltaKey{TurnID: "t"}, "a")
	c.add("tool.output", deltaKey{TurnID: "t", CallID: "c1"}, "1")
	c.add("tool.output", deltaKey{TurnID: "t", CallID: "c1"}, "2")
	c.add("turn.delta", deltaKey{TurnID: "t"}, "b")
	c.flush()
	want := []string{"turn.delta::a", "tool.output:c1:12", "turn.delta::b"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %v", got)
	}
}
