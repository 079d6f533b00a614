package agent

import (
	"context"
	"testing"
	"time"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
)

// With one turn allowed at once, a second session's turn waits, says so, and makes no model
// request until the first ends; then it runs.
func TestATurnOverTheParallelLimitWaitsForOneToEnd(t *testing.T) {
	h := newHarness(t, script(
		`{"text":"A asks.","tool_calls":[{"name":"bash","input":{"command":"echo a > a.txt"}}]}`,
		`{"text":"A done."}`,
		`{"text":"B done."}`), harnessOpts{})
	if err := h.st.SetSetting(SettingParallelTurns, "1"); err != nil {
		t.Fatal(err)
	}
	asked := make(chan decision.Decision, 1)
	h.onDecision(func(d decision.Decision) *decision.Resolution { asked <- d; return nil })
	if _, err := h.rt.Send(Input{SessionID: h.session, Text: "a", Mode: mode.FollowUpInput{ExecutionOverride: str("execute")}}); err != nil {
		t.Fatal(err)
	}
	d := <-asked
	b := h.newSession(harnessOpts{})
	if _, err := h.rt.Send(Input{SessionID: b, Text: "b", Mode: mode.FollowUpInput{ExecutionOverride: str("execute")}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(h.named(EventTurnWaiting)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	w := h.named(EventTurnWaiting)
	if len(w) != 1 || w[0].Data.(TurnWaiting).SessionID != b || w[0].Data.(TurnWaiting).Limit != 1 {
		t.Fatalf("turn.waiting: %+v", w)
	}
	if n := len(h.recorded().Requests); n != 1 {
		t.Fatalf("the waiting turn asked the model: %d requests", n)
	}
	h.reg.Resolve(d.ID, decision.Approval(decision.Reject, ""))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := h.rt.Wait(ctx, b); err != nil {
		t.Fatal(err)
	}
	if n := len(h.recorded().Requests); n != 3 {
		t.Fatalf("after the first ended, the second ran: %d requests", n)
	}
}

// A turn stopped while it waits gives up its place; slots are given back in order.
func TestSlotsWaitInOrderAndACancelledWaiterLeaves(t *testing.T) {
	var s slots
	one := func() int { return 1 }
	first, err := s.acquire(context.Background(), one, func(int, int) { t.Fatal("the first waited") })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	told := make(chan struct{})
	gaveUp := make(chan error, 1)
	go func() {
		_, err := s.acquire(ctx, one, func(running, limit int) {
			if running != 1 || limit != 1 {
				t.Errorf("told %d of %d", running, limit)
			}
			close(told)
		})
		gaveUp <- err
	}()
	<-told
	cancel()
	if err := <-gaveUp; err == nil {
		t.Fatal("a cancelled waiter took a slot")
	}
	got := make(chan struct{})
	go func() {
		release, err := s.acquire(context.Background(), one, func(int, int) {})
		if err == nil {
			release()
		}
		close(got)
	}()
	first()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the next waiter never got the slot")
	}
	if s.used != 0 || len(s.waiting) != 0 {
		t.Fatalf("left %d used, %d waiting", s.used, len(s.waiting))
	}
}
