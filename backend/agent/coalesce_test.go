package agent

import (
	"fmt"
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

// The race of the timer's flush with the turn's own: with a publish slow enough to be caught
// mid-batch, every chunk (each one unique) still arrives once, in order, before the event that
// follows the turn's flush, and nothing follows the turn's end.
func TestCoalescerKeepsOrderAndNothingFollowsTheTerminalEvent(t *testing.T) {
	var mu sync.Mutex
	var log []string // "d:<text>#seq" for deltas, the name for the rest
	var lastSeq = map[deltaKey]uint64{}
	publish := func(name string, data any) {
		if d, ok := data.(Delta); ok {
			time.Sleep(50 * time.Microsecond) // a slow publish widens the race
			mu.Lock()
			key := deltaKey{d.SessionID, d.TurnID, d.CallID}
			if d.Seq != lastSeq[key]+1 {
				t.Errorf("stream %v: seq %d after %d", key, d.Seq, lastSeq[key])
			}
			lastSeq[key] = d.Seq
			log = append(log, "d:"+d.CallID+":"+d.Text)
			mu.Unlock()
			return
		}
		mu.Lock()
		log = append(log, name)
		mu.Unlock()
	}
	c := newCoalescer(publish)
	text := deltaKey{SessionID: "s", TurnID: "t"}
	var want []string // each marker and the chunks that must precede it
	for round := 0; round < 15; round++ {
		call := deltaKey{SessionID: "s", TurnID: "t", CallID: fmt.Sprint("c", round)}
		for i := 0; i < 25; i++ {
			chunk := fmt.Sprintf("<%d.%d>", round, i)
			c.add(EventTurnDelta, text, chunk)
			c.add(EventToolOutput, call, "["+chunk+"]")
			want = append(want, chunk)
			if i%7 == 0 {
				time.Sleep(Interval / 2) // let the timer fire now and then
			}
		}
		c.flush() // the model's stream ended: its text is out before the call runs
		publish("tool.call", nil)
		c.end(call) // the call's result ends its output
		publish(EventToolDone, nil)
		c.add(EventToolOutput, call, "stale") // after the result: dropped
	}
	c.add(EventTurnDelta, text, "<last>")
	want = append(want, "<last>")
	c.close()
	publish(EventTurnEnded, nil)
	c.add(EventTurnDelta, text, "<after the end>")
	time.Sleep(3 * Interval)

	mu.Lock()
	defer mu.Unlock()
	var gotText, gotOutput strings.Builder
	open := 0 // tool.call markers seen, so far
	for i, e := range log {
		switch {
		case e == EventTurnEnded && i != len(log)-1:
			t.Fatalf("%d events after turn.ended: %v", len(log)-1-i, log[i+1:])
		case e == "tool.call":
			open++
			// Everything of rounds before this marker's round is out by now.
			if !strings.HasSuffix(gotText.String(), fmt.Sprintf("<%d.24>", open-1)) {
				t.Fatalf("tool.call %d overtook its text: text so far ends %q", open-1, tail(gotText.String()))
			}
		case strings.HasPrefix(e, "d::"):
			gotText.WriteString(strings.TrimPrefix(e, "d::"))
		case strings.HasPrefix(e, "d:c"):
			_, out, _ := strings.Cut(strings.TrimPrefix(e, "d:"), ":")
			if strings.Contains(out, "stale") {
				t.Fatalf("output after its tool.result: %q", out)
			}
			gotOutput.WriteString(out)
		}
	}
	if gotText.String() != strings.Join(want, "") {
		t.Fatalf("text reordered or lost:\n got %s\nwant %s", tail(gotText.String()), tail(strings.Join(want, "")))
	}
	if gotOutput.String() != "["+strings.Join(want[:len(want)-1], "][")+"]" {
		t.Fatalf("output reordered or lost: %s", tail(gotOutput.String()))
	}
}

func tail(s string) string {
	if len(s) > 80 {
		return "…" + s[len(s)-80:]
	}
	return s
}
