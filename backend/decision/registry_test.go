package decision

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

// R-DEC-3: a session's decisions queue in ask order, in memory, on the bus and in the database;
// the next one reaches the head when the head is answered.
func TestPendingDecisionsAreFIFO(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	var waits []*asked
	for i := range 3 {
		waits = append(waits, g.ask(context.Background(), question(sid, fmt.Sprint("q", i))))
		g.waitPending(t, sid, i+1)
	}
	pending := g.reg.Pending(sid)
	for i, d := range pending {
		if !json.Valid(d.Payload) || string(d.Payload) != fmt.Sprintf(`{"options":["yes","no"],"question":"q%d"}`, i) {
			t.Fatalf("pending[%d] = %s", i, d.Payload)
		}
	}
	assertSameOrder(t, g, sid, pending)
	if ok, err := g.reg.Resolve(pending[0].ID, Answer([]string{"yes"}, "")); !ok || err != nil {
		t.Fatalf("resolve head: %v %v", ok, err)
	}
	if head := g.reg.Pending(sid); len(head) != 2 || head[0].ID != pending[1].ID {
		t.Fatalf("after the head was answered: %v", head)
	}
	_, res := waits[0].wait(t)
	if res.Outcome != Answered || string(res.Answer) != `{"selected":["yes"]}` {
		t.Fatalf("waiter got %+v", res)
	}
	g.reg.CancelSession(sid)
}

func assertSameOrder(t *testing.T, g *rig, sid string, pending []Decision) {
	t.Helper()
	rows, err := g.st.PendingDecisions(sid)
	if err != nil || len(rows) != len(pending) {
		t.Fatalf("rows: %v %v", rows, err)
	}
	announced := g.rec.named(EventAsked, "")
	for i, d := range pending {
		if rows[i].ID != d.ID || eventID(announced[i]) != d.ID {
			t.Fatalf("order differs at %d: memory %s, row %s, event %s", i, d.ID, rows[i].ID, eventID(announced[i]))
		}
	}
}

// Several decisions asked at once still queue one behind the other, in the order they were
// registered, and each ends exactly once.
func TestConcurrentAsksKeepOneQueue(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	const n = 20
	var waits []*asked
	for i := range n {
		waits = append(waits, g.ask(context.Background(), question(sid, fmt.Sprint(i))))
	}
	pending := g.waitPending(t, sid, n)
	assertSameOrder(t, g, sid, pending)
	for _, d := range pending {
		if ok, err := g.reg.Resolve(d.ID, Answer(nil, "ok")); !ok || err != nil {
			t.Fatalf("resolve %s: %v %v", d.ID, ok, err)
		}
	}
	for _, w := range waits {
		if _, res := w.wait(t); res.Outcome != Answered {
			t.Fatalf("outcome %s", res.Outcome)
		}
	}
	if got := len(g.rec.named(EventResolved, "")); got != n {
		t.Fatalf("%d resolved events for %d decisions", got, n)
	}
}

// The first resolver wins: of 50 concurrent answers exactly one is taken, the waiter gets that
// one, the row stores it and the bus announced it once.
func TestFirstResolverWinsUnderContention(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	for round := range 10 {
		w := g.ask(context.Background(), question(sid, "race"))
		d := g.waitPending(t, sid, 1)[0]
		winners := resolveConcurrently(t, g.reg, d.ID, 50)
		if len(winners) != 1 {
			t.Fatalf("round %d: %d winners", round, len(winners))
		}
		_, res := w.wait(t)
		want := Answer(nil, winners[0]).Answer
		if string(res.Answer) != string(want) {
			t.Fatalf("round %d: waiter got %s, winner sent %s", round, res.Answer, want)
		}
		row, _ := g.st.Decision(d.ID)
		if row.Status != store.DecisionAnswered || row.Answer != string(want) {
			t.Fatalf("round %d: row %+v disagrees with %s", round, row, want)
		}
		ev := g.rec.named(EventResolved, d.ID)
		if len(ev) != 1 || string(ev[0].Data.(Resolved).Answer) != string(want) {
			t.Fatalf("round %d: resolved events %+v", round, ev)
		}
	}
}

func resolveConcurrently(t *testing.T, reg *Registry, id string, n int) []string {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []string
		start   = make(chan struct{})
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			text := fmt.Sprint("answer ", i)
			ok, err := reg.Resolve(id, Answer(nil, text))
			if err != nil {
				t.Errorf("resolver %d: %v", i, err)
			}
			if ok {
				mu.Lock()
				winners = append(winners, text)
				mu.Unlock()
			}
		}()
	}
	close(start)
	waitAll(t, &wg)
	return winners
}

// waitAll fails instead of hanging: two winners would both hand a resolution to a waiter
// that takes one, and the second would block forever. The limit is far above the slowest
// honest run (a loaded 2-core machine under -race took seconds), so only a hang trips it.
func waitAll(t *testing.T, wg *sync.WaitGroup) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("resolvers hung: more than one resolver won")
	}
}

// Every way of ending races every other: an answer, a rejection, CancelSession, the context and
// the deadline. Exactly one wins and the row agrees with what the waiter got.
func TestAllResolutionPathsRace(t *testing.T) {
	g := newRig(t, Options{Timeout: func() time.Duration { return 2 * time.Millisecond }})
	sid := g.session(t, "a")
	for round := range 30 {
		ctx, cancel := context.WithCancel(context.Background())
		w := g.ask(ctx, Request{SessionID: sid, Kind: KindApproval, Payload: map[string]string{"summary": "rm x"}})
		d := g.waitPendingOrDone(t, sid, w)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for _, end := range racers(g.reg, sid, cancel) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if end(d.ID) {
					wins.Add(1)
				}
			}()
		}
		waitAll(t, &wg)
		_, res := w.wait(t)
		cancel()
		if wins.Load() > 1 {
			t.Fatalf("round %d: %d resolvers won", round, wins.Load())
		}
		if row, _ := g.st.Decision(w.d.ID); row.Status != string(res.Outcome) {
			t.Fatalf("round %d: row %s, waiter %s", round, row.Status, res.Outcome)
		}
		if n := len(g.rec.named(EventResolved, w.d.ID)); n != 1 {
			t.Fatalf("round %d: %d resolved events", round, n)
		}
	}
}

// waitPendingOrDone returns the pending decision, or the waiter's own one when the tiny
// deadline already ended it.
func (g *rig) waitPendingOrDone(t *testing.T, sid string, w *asked) Decision {
	for {
		if p := g.reg.Pending(sid); len(p) == 1 {
			return p[0]
		}
		select {
		case <-w.end:
			return w.d
		case <-time.After(time.Millisecond):
		}
	}
}

func racers(reg *Registry, sid string, cancel context.CancelFunc) []func(id string) bool {
	resolve := func(res Resolution) func(string) bool {
		return func(id string) bool { ok, _ := reg.Resolve(id, res); return ok }
	}
	return []func(string) bool{
		resolve(Approval(AllowOnce, "")),
		resolve(Approval(Reject, "no")),
		func(string) bool { return reg.CancelSession(sid) > 0 },
		func(string) bool { cancel(); return false },
	}
}

// R-DEC-5: unanswered past the timeout, a decision ends timed out, which declines the call.
func TestTimeoutResolvesAsTimedOut(t *testing.T) {
	g := newRig(t, Options{Timeout: func() time.Duration { return 20 * time.Millisecond }})
	sid := g.session(t, "a")
	d, res, err := g.reg.Ask(context.Background(), Request{SessionID: sid, Kind: KindApproval})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != TimedOut || res.ReasonKey != "decision.reason.timed_out" {
		t.Fatalf("resolution %+v", res)
	}
	if errs.KindOf(GateError(res)) != policy.DecisionTimedOut {
		t.Fatalf("gate error %v", GateError(res))
	}
	if d.Deadline.Sub(d.CreatedAt) != 20*time.Millisecond {
		t.Fatalf("deadline %v after creation", d.Deadline.Sub(d.CreatedAt))
	}
	if row, _ := g.st.Decision(d.ID); row.Status != store.DecisionTimedOut {
		t.Fatalf("row %+v", row)
	}
	if len(g.reg.Pending(sid)) != 0 {
		t.Fatal("a timed-out decision stayed pending")
	}
}

// Issue 12: by default a decision has no deadline and waits for the person, however long; only
// an answer (or a cancel) ends it.
func TestByDefaultADecisionWaitsWithoutADeadline(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	w := g.ask(context.Background(), question(sid, "still there?"))
	pending := g.waitPending(t, sid, 1)
	if !pending[0].Deadline.IsZero() {
		t.Fatalf("deadline %v, want none", pending[0].Deadline)
	}
	time.Sleep(50 * time.Millisecond)
	if len(g.reg.Pending(sid)) != 1 {
		t.Fatal("a decision without a timeout ended on its own")
	}
	if won, err := g.reg.Resolve(pending[0].ID, Answer([]string{"yes"}, "")); !won || err != nil {
		t.Fatalf("resolve: %v %v", won, err)
	}
	if _, res := w.wait(t); res.Outcome != Answered {
		t.Fatalf("resolution %+v", res)
	}
}

// A subscriber that never finishes with decision.asked (a terminal prompt no one answers)
// holds neither the deadline nor the waiter: the decision times out on time, and an answer
// that comes later loses.
func TestTimeoutHoldsWhileASubscriberNeverReturns(t *testing.T) {
	const timeout = 150 * time.Millisecond
	g := newRig(t, Options{Timeout: func() time.Duration { return timeout }})
	stuck := make(chan struct{})
	defer close(stuck)
	g.bus.Subscribe(func(e bus.Event) {
		if e.Name == EventAsked {
			<-stuck
		}
	})
	sid := g.session(t, "a")
	start := time.Now()
	d, res, err := g.reg.Ask(context.Background(), Request{SessionID: sid, Kind: KindApproval})
	took := time.Since(start)
	if err != nil || res.Outcome != TimedOut {
		t.Fatalf("resolution %+v, %v", res, err)
	}
	if took < timeout || took > timeout+2*time.Second {
		t.Fatalf("the waiter returned after %v, deadline %v", took, timeout)
	}
	if ok, err := g.reg.Resolve(d.ID, Approval(AllowOnce, "")); ok || err != nil {
		t.Fatalf("a late answer went through: %v %v", ok, err)
	}
	if row, _ := g.st.Decision(d.ID); row.Status != store.DecisionTimedOut {
		t.Fatalf("row %+v", row)
	}
}

func TestContextDoneResolvesAsCancelled(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	ctx, cancel := context.WithCancel(context.Background())
	w := g.ask(ctx, question(sid, "?"))
	g.waitPending(t, sid, 1)
	cancel()
	d, res := w.wait(t)
	if res.Outcome != Cancelled || res.ReasonKey != "decision.reason.cancelled" {
		t.Fatalf("resolution %+v", res)
	}
	if errs.KindOf(GateError(res)) != CodeCancelled {
		t.Fatalf("gate error %v", GateError(res))
	}
	if row, _ := g.st.Decision(d.ID); row.Status != store.DecisionCancelled {
		t.Fatalf("row %+v", row)
	}
	if ok, err := g.reg.Resolve(d.ID, Answer(nil, "late")); ok || err != nil {
		t.Fatalf("a late answer must be a no-op: %v %v", ok, err)
	}
}

// R-RUN-4: cancelling a session ends all of its decisions and none of another's.
func TestCancelSessionCancelsOnlyThatSession(t *testing.T) {
	g := newRig(t, Options{})
	a, b := g.session(t, "a"), g.session(t, "b")
	var mine []*asked
	for i := range 3 {
		mine = append(mine, g.ask(context.Background(), question(a, fmt.Sprint(i))))
	}
	other := g.ask(context.Background(), question(b, "other"))
	g.waitPending(t, a, 3)
	g.waitPending(t, b, 1)
	if n := g.reg.CancelSession(a); n != 3 {
		t.Fatalf("cancelled %d", n)
	}
	for _, w := range mine {
		if _, res := w.wait(t); res.Outcome != Cancelled {
			t.Fatalf("outcome %s", res.Outcome)
		}
	}
	if p := g.reg.Pending(b); len(p) != 1 {
		t.Fatalf("the other session lost its decision: %v", p)
	}
	if n := g.reg.CancelSession(a); n != 0 {
		t.Fatalf("cancelling again ended %d", n)
	}
	g.reg.CancelSession(b)
	other.wait(t)
}

// Each ask is announced once and each end once, asked before resolved, and the waiter returns
// only after decision.resolved is out.
func TestEventsArePublishedOnceInOrder(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	w1 := g.ask(context.Background(), question(sid, "one"))
	g.waitPending(t, sid, 1)
	w2 := g.ask(context.Background(), question(sid, "two"))
	p := g.waitPending(t, sid, 2)
	g.reg.Resolve(p[1].ID, Answer(nil, "second first"))
	w2.wait(t)
	if n := len(g.rec.named(EventResolved, p[1].ID)); n != 1 {
		t.Fatalf("the waiter returned before its resolved event (%d)", n)
	}
	g.reg.Resolve(p[0].ID, Resolution{Outcome: Rejected, Reason: "not now"})
	w1.wait(t)
	var got []string
	for _, e := range g.rec.all() {
		got = append(got, e.Name+" "+eventID(e))
	}
	want := []string{EventAsked + " " + p[0].ID, EventAsked + " " + p[1].ID,
		EventResolved + " " + p[1].ID, EventResolved + " " + p[0].ID}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	assertEventJSON(t, g.rec.all())
}

// The event data crosses to the UI as JSON with these field names.
func assertEventJSON(t *testing.T, events []bus.Event) {
	t.Helper()
	asked, _ := json.Marshal(events[0].Data)
	resolved, _ := json.Marshal(events[3].Data)
	var a, r map[string]any
	json.Unmarshal(asked, &a)
	json.Unmarshal(resolved, &r)
	for _, k := range []string{"id", "sessionId", "turnId", "kind", "payload", "createdAt", "deadline"} {
		if _, ok := a[k]; !ok {
			t.Errorf("decision.asked lacks %q: %s", k, asked)
		}
	}
	for _, k := range []string{"id", "sessionId", "kind", "outcome", "answer", "reason"} {
		if _, ok := r[k]; !ok {
			t.Errorf("decision.resolved lacks %q: %s", k, resolved)
		}
	}
	if r["outcome"] != "rejected" || r["reason"] != "not now" {
		t.Errorf("decision.resolved: %s", resolved)
	}
}

// A subscriber may answer from inside Publish — the non-interactive run declines every
// decision the moment it is asked — without deadlock, and the order still holds.
func TestSubscriberMayResolveFromInsidePublish(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	g.bus.Subscribe(func(e bus.Event) {
		if d, ok := e.Data.(Decision); ok && e.Name == EventAsked {
			res := Resolution{Outcome: Rejected, ReasonKey: ReasonNonInteractive}
			if ok, err := g.reg.Resolve(d.ID, res); !ok || err != nil {
				t.Errorf("resolve from subscriber: %v %v", ok, err)
			}
			if len(g.reg.Pending(sid)) != 0 {
				t.Error("still pending after resolve")
			}
		}
	})
	done := make(chan Resolution)
	go func() {
		_, res, _ := g.reg.Ask(context.Background(), Request{SessionID: sid, Kind: KindApproval})
		done <- res
	}()
	select {
	case res := <-done:
		if res.Outcome != Rejected || res.ReasonKey != ReasonNonInteractive || string(res.Answer) != `{"choice":"reject"}` {
			t.Fatalf("resolution %+v %s", res, res.Answer)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("deadlock: a subscriber resolving inside Publish never returned")
	}
	if ev := g.rec.all(); len(ev) != 2 || ev[0].Name != EventAsked || ev[1].Name != EventResolved {
		t.Fatalf("events %v", ev)
	}
}

// R-DEC-4: a rejection's reason reaches the model verbatim, whichever way the client spells it.
func TestRejectionReasonIsVerbatim(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	reason := "  use the staging DB — not prod!\n"
	spellings := []Resolution{
		Approval(Reject, reason),
		{Outcome: Answered, Answer: json.RawMessage(`{"choice":"reject","reason":` + quote(reason) + `}`)},
		{Outcome: Rejected, Reason: reason},
	}
	for i, res := range spellings {
		w := g.ask(context.Background(), Request{SessionID: sid, Kind: KindApproval})
		d := g.waitPending(t, sid, 1)[0]
		if ok, err := g.reg.Resolve(d.ID, res); !ok || err != nil {
			t.Fatalf("spelling %d: %v %v", i, ok, err)
		}
		_, got := w.wait(t)
		gate := GateError(got)
		text := ToolErrorText(gate, func(key string, _ map[string]any) string { return key })
		if got.Outcome != Rejected || errs.KindOf(gate) != policy.RejectedByUser || text != reason {
			t.Fatalf("spelling %d: %+v -> %q", i, got, text)
		}
		if a, err := ParseApproval(got.Answer); err != nil || a.Choice != Reject || a.Reason != reason {
			t.Fatalf("spelling %d: answer %s", i, got.Answer)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A malformed answer is refused and leaves the decision pending for a proper one.
func TestResolveRefusesAnswersThatDoNotFit(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	w := g.ask(context.Background(), Request{SessionID: sid, Kind: KindApproval})
	d := g.waitPending(t, sid, 1)[0]
	bad := []Resolution{
		{Outcome: Answered, Answer: json.RawMessage(`{"choice":"allow_forever"}`)},
		{Outcome: Answered},
		{Outcome: Answered, Answer: json.RawMessage(`{"choice":"allow_once","extra":1}`)},
		{Outcome: Rejected, Answer: json.RawMessage(`{"choice":"allow_once"}`)},
		{Outcome: "maybe"},
	}
	for i, res := range bad {
		if ok, err := g.reg.Resolve(d.ID, res); ok || (errs.KindOf(err) != errs.InvalidValue && errs.KindOf(err) != errs.InvalidInput) {
			t.Fatalf("bad answer %d: %v %v", i, ok, err)
		}
	}
	if len(g.reg.Pending(sid)) != 1 {
		t.Fatal("a refused answer ended the decision")
	}
	if _, err := g.reg.Resolve("no-such-id", Approval(AllowOnce, "")); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("unknown id: %v", err)
	}
	g.reg.Resolve(d.ID, Approval(AllowSession, ""))
	if _, res := w.wait(t); GateError(res) != nil {
		t.Fatalf("allow for this session declined: %+v", res)
	}
	if len(g.rec.named(EventResolved, "")) != 1 {
		t.Fatal("refused answers were announced")
	}
}

func TestAskRefusesBadRequests(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	cases := map[string]struct {
		req  Request
		kind errs.Kind
	}{
		"no session":       {Request{Kind: KindQuestion}, errs.InvalidInput},
		"unknown kind":     {Request{SessionID: sid, Kind: "poll"}, errs.InvalidValue},
		"payload not JSON": {Request{SessionID: sid, Kind: KindQuestion, Payload: make(chan int)}, errs.InvalidInput},
		"missing session":  {Request{SessionID: "gone", Kind: KindQuestion}, errs.NotFound},
	}
	for name, c := range cases {
		if _, _, err := g.reg.Ask(context.Background(), c.req); errs.KindOf(err) != c.kind {
			t.Errorf("%s: %v, want %s", name, err, c.kind)
		}
	}
	if ev := g.rec.all(); len(ev) != 0 {
		t.Fatalf("a refused ask was announced: %v", ev)
	}
}
