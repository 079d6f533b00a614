package store

import (
	"fmt"
	"testing"
	"time"

	"agentdesk/backend/errs"
)

func newSession(t *testing.T, s *Store, title string) Session {
	t.Helper()
	sess, err := s.CreateSession(NewSession{Title: title, Workspace: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func pendingRow(id, sessionID string) DecisionRow {
	now := time.Now().UTC()
	return DecisionRow{ID: id, SessionID: sessionID, Kind: "question", Payload: `{"q":"?"}`,
		CreatedAt: now, Deadline: now.Add(time.Minute)}
}

func ids(rows []DecisionRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

// Pending decisions come back in the order they were asked, whatever their ids sort as.
func TestPendingDecisionsAreFIFOPerSession(t *testing.T) {
	s, _ := openTemp(t)
	a, b := newSession(t, s, "a"), newSession(t, s, "b")
	for _, id := range []string{"z", "m", "a"} {
		if err := s.CreateDecision(pendingRow(id, a.ID)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateDecision(pendingRow("other", b.ID)); err != nil {
		t.Fatal(err)
	}
	got, err := s.PendingDecisions(a.ID)
	if err != nil || fmt.Sprint(ids(got)) != "[z m a]" {
		t.Fatalf("pending of a: %v, %v", ids(got), err)
	}
	all, _ := s.AllPending()
	if fmt.Sprint(ids(all)) != "[z m a other]" {
		t.Fatalf("all pending: %v", ids(all))
	}
	if got[0].Status != DecisionPending || got[0].Answer != "{}" || got[0].Payload != `{"q":"?"}` {
		t.Fatalf("row: %+v", got[0])
	}
}

func TestResolveDecisionOnlyMovesPendingRows(t *testing.T) {
	s, _ := openTemp(t)
	a := newSession(t, s, "a")
	s.CreateDecision(pendingRow("d1", a.ID))
	ok, err := s.ResolveDecision("d1", DecisionAnswered, `{"text":"first"}`)
	if !ok || err != nil {
		t.Fatalf("first resolve: %v %v", ok, err)
	}
	ok, err = s.ResolveDecision("d1", DecisionRejected, `{"text":"second"}`)
	if ok || err != nil {
		t.Fatalf("a second resolve must be a no-op: %v %v", ok, err)
	}
	row, _ := s.Decision("d1")
	if row.Status != DecisionAnswered || row.Answer != `{"text":"first"}` || row.ResolvedAt == nil {
		t.Fatalf("row: %+v", row)
	}
	if _, err := s.ResolveDecision("missing", DecisionAnswered, ""); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("missing: %v", err)
	}
	if _, err := s.ResolveDecision("d1", DecisionPending, ""); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("pending is not an end: %v", err)
	}
}

func TestCreateDecisionNeedsItsSession(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.CreateDecision(pendingRow("d", "no-such-session")); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("orphan decision: %v", err)
	}
	if err := s.CreateDecision(DecisionRow{SessionID: "x"}); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("missing id: %v", err)
	}
}

// R-DEC-6: what was pending or running when the app stopped is interrupted at the next start,
// and nothing that had already ended changes.
func TestInterruptUnfinishedAfterReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := newSession(t, s, "a")
	running := runningTurn(t, s, a.ID, "go")
	done := runningTurn(t, s, a.ID, "done")
	s.EndTurn(done.ID, TurnDone, "")
	s.CreateDecision(pendingRow("p1", a.ID))
	s.CreateDecision(pendingRow("p2", a.ID))
	s.CreateDecision(pendingRow("ans", a.ID))
	s.ResolveDecision("ans", DecisionAnswered, `{"ok":true}`)
	s.Close()

	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got, _ := s2.PendingDecisions(a.ID); fmt.Sprint(ids(got)) != "[p1 p2]" {
		t.Fatalf("pending rows must survive a reopen: %v", ids(got))
	}
	turns, decisions, err := s2.InterruptUnfinished()
	if err != nil || turns != 1 || decisions != 2 {
		t.Fatalf("interrupted %d turns, %d decisions, %v", turns, decisions, err)
	}
	assertInterrupted(t, s2, a.ID, running.ID, done.ID)
	if again, _, _ := s2.InterruptUnfinished(); again != 0 {
		t.Fatalf("a second pass found %d turns", again)
	}
}

func assertInterrupted(t *testing.T, s *Store, sessionID, runningID, doneID string) {
	t.Helper()
	for _, id := range []string{"p1", "p2"} {
		if row, _ := s.Decision(id); row.Status != DecisionInterrupted || row.ResolvedAt == nil {
			t.Fatalf("decision %s: %+v", id, row)
		}
	}
	if row, _ := s.Decision("ans"); row.Status != DecisionAnswered {
		t.Fatalf("an answered decision changed: %+v", row)
	}
	turns, _ := s.Turns(sessionID)
	for _, tr := range turns {
		switch tr.ID {
		case runningID:
			if tr.Status != TurnInterrupted || tr.EndedAt == nil {
				t.Fatalf("running turn: %+v", tr)
			}
		case doneID:
			if tr.Status != TurnDone {
				t.Fatalf("a finished turn changed: %+v", tr)
			}
		}
	}
}

func TestDecisionsGoWithTheirSession(t *testing.T) {
	s, _ := openTemp(t)
	a := newSession(t, s, "a")
	s.CreateDecision(pendingRow("d", a.ID))
	if err := s.DeleteSession(a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decision("d"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("decision outlived its session: %v", err)
	}
}
