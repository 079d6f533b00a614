package decision

import (
	"context"
	"testing"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// R-DEC-6: a decision pending when the app stopped is still in the database at the next start;
// Recover marks it and its running turn interrupted and announces nothing stale.
func TestRestartInterruptsPendingDecisionsAndTurns(t *testing.T) {
	dir := t.TempDir()
	st1, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := st1.CreateSession(store.NewSession{Title: "a", Workspace: "/w"})
	started, _ := st1.StartTurn(store.TurnStart{SessionID: sess.ID, Prompt: "go", Preference: mode.Default})
	turn := started.Turn
	old := New(st1, nil, Options{OnError: func(error) {}}) // the old process's writes fail once its store closes
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := (&rig{st: st1, reg: old}).ask(ctx, Request{SessionID: sess.ID, TurnID: turn.ID, Kind: KindPlanReview, Payload: "# Plan"})
	d := (&rig{reg: old}).waitPending(t, sess.ID, 1)[0]
	st1.Close() // the app stops with the decision unanswered

	st2, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if rows, _ := st2.PendingDecisions(sess.ID); len(rows) != 1 || rows[0].ID != d.ID || rows[0].Payload != `"# Plan"` {
		t.Fatalf("the pending row did not survive: %+v", rows)
	}
	b := bus.New()
	rec := &recorder{bus: b}
	b.Subscribe(rec.add)
	defer b.Close(context.Background())
	reg := New(st2, b.Publish, Options{})
	turns, decisions, err := reg.Recover()
	if err != nil || turns != 1 || decisions != 1 {
		t.Fatalf("recover: %d turns, %d decisions, %v", turns, decisions, err)
	}
	assertRecovered(t, st2, reg, rec, sess.ID, d.ID)
	cancel()
	<-w.end
}

func assertRecovered(t *testing.T, st *store.Store, reg *Registry, rec *recorder, sid, id string) {
	t.Helper()
	if row, _ := st.Decision(id); row.Status != store.DecisionInterrupted {
		t.Fatalf("decision row %+v", row)
	}
	if turns, _ := st.Turns(sid); turns[0].Status != store.TurnInterrupted {
		t.Fatalf("turn %+v", turns[0])
	}
	if ev := rec.all(); len(ev) != 0 || len(reg.Pending(sid)) != 0 {
		t.Fatalf("stale state announced: %v", ev)
	}
	if ok, err := reg.Resolve(id, Plan(ApprovePlan, "")); ok || err != nil {
		t.Fatalf("an interrupted decision cannot be answered: %v %v", ok, err)
	}
}

// Recover after an Ask would mark live decisions interrupted under their waiters.
func TestRecoverRefusesOnceSomethingWasAsked(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	w := g.ask(context.Background(), question(sid, "?"))
	d := g.waitPending(t, sid, 1)[0]
	if _, _, err := g.reg.Recover(); errs.KindOf(err) != errs.Internal {
		t.Fatalf("recover after ask: %v", err)
	}
	if row, _ := g.st.Decision(d.ID); row.Status != store.DecisionPending {
		t.Fatalf("a live decision was touched: %+v", row)
	}
	g.reg.CancelSession(sid)
	w.wait(t)
}
