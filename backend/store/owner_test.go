package store

import (
	"fmt"
	"os/exec"
	"testing"
)

func TestStartupInterruptsOnlyTheTurnsOfProcessesThatAreGone(t *testing.T) {
	s, _ := openTemp(t)
	sess, _ := s.CreateSession(NewSession{Title: "t", Workspace: "/w"})
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer live.Process.Kill()
	gone := exec.Command("true")
	gone.Run()

	owners := map[string]string{
		"live":   fmt.Sprintf("%d:abc", live.Process.Pid),
		"gone":   fmt.Sprintf("%d:abc", gone.Process.Pid),
		"legacy": "",
	}
	ids := map[string]string{}
	for name, owner := range owners {
		turn := runningTurn(t, s, sess.ID, name)
		s.db.Model(&Turn{}).Where("id = ?", turn.ID).Update("owner", owner)
		ids[name] = turn.ID
		s.CreateDecision(DecisionRow{ID: "d-" + name, SessionID: sess.ID, TurnID: turn.ID, Kind: "approval", Status: DecisionPending})
	}
	turns, decisions, err := s.InterruptUnfinished()
	if err != nil || turns != 2 || decisions != 2 {
		t.Fatalf("interrupted %d turns and %d decisions: %v", turns, decisions, err)
	}
	for name, id := range ids {
		var got Turn
		s.db.Where("id = ?", id).Take(&got)
		want := TurnInterrupted
		if name == "live" {
			want = TurnRunning
		}
		if got.Status != want {
			t.Errorf("%s turn: %s, want %s", name, got.Status, want)
		}
	}
	if d, _ := s.Decision("d-live"); d.Status != DecisionPending {
		t.Fatalf("the live process's decision was touched: %s", d.Status)
	}
}

func TestTurnsRecordThisProcessAsOwner(t *testing.T) {
	s, _ := openTemp(t)
	sess, _ := s.CreateSession(NewSession{Title: "t", Workspace: "/w"})
	turn := runningTurn(t, s, sess.ID, "hi")
	if turn.Owner != s.owner || !ownerAlive(turn.Owner, turn.CreatedAt) || ownerAlive("", turn.CreatedAt) {
		t.Fatalf("owner %q", turn.Owner)
	}
}

func TestAClosedStoreOfThisProcessCountsAsGone(t *testing.T) {
	dir := t.TempDir()
	first, _ := Open(dir)
	sess, _ := first.CreateSession(NewSession{Title: "t", Workspace: "/w"})
	runningTurn(t, first, sess.ID, "hi")
	second, _ := Open(dir)
	defer second.Close()
	if n, _, _ := second.InterruptUnfinished(); n != 0 {
		t.Fatal("a turn of a store still open was interrupted")
	}
	first.Close()
	if n, _, _ := second.InterruptUnfinished(); n != 1 {
		t.Fatalf("the closed store's turn was not interrupted (%d)", n)
	}
}
