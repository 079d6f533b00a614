package store

import (
	"testing"

	"agentdesk/backend/mode"
)

// A session takes its first turn's title with that turn, only while its title is a default
// one; later turns and titles the person chose are left alone.
func TestAFirstTurnTitlesASessionThatHasADefaultTitle(t *testing.T) {
	s, _ := openTemp(t)
	defaults := []string{"New session", "新会话"}
	start := func(sessionID, title string) {
		t.Helper()
		in := TurnStart{SessionID: sessionID, Prompt: "p", Preference: mode.Default,
			Title: FirstTitle{Title: title, Defaults: defaults}}
		started, err := s.StartTurn(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.EndTurn(started.Turn.ID, TurnDone, ""); err != nil {
			t.Fatal(err)
		}
	}
	untitled := newSession(t, s, "新会话")
	named := newSession(t, s, "Mine")
	blank := newSession(t, s, "New session")
	start(untitled.ID, "Fix the login bug")
	start(untitled.ID, "Something else")
	start(named.ID, "Fix it")
	start(blank.ID, "")
	want := map[string]string{untitled.ID: "Fix the login bug", named.ID: "Mine", blank.ID: "New session"}
	for id, title := range want {
		got, err := s.GetSession(id)
		if err != nil || got.Title != title {
			t.Errorf("session %s titled %q (%v), want %q", id, got.Title, err, title)
		}
	}
	later := newSession(t, s, "New session")
	start(later.ID, "")
	start(later.ID, "Too late")
	if got, _ := s.GetSession(later.ID); got.Title != "New session" {
		t.Errorf("a second turn titled the session %q", got.Title)
	}
}
