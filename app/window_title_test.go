package app

import (
	"testing"
	"time"

	"agentdesk/backend/store"
)

// The title is plain "AgentDesk" (the desktop smoke finds the window by it) until decisions
// wait, then says how many, in the app's language.
func TestWindowTitleCountsWaitingDecisions(t *testing.T) {
	s := newServices(t)
	if got := s.windowTitle(); got != "AgentDesk" {
		t.Fatalf("nothing waits: %q", got)
	}
	sess, err := (&Sessions{s}).Create(CreateSessionRequest{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	for _, id := range []string{"d1", "d2"} {
		if err := s.Store.CreateDecision(store.DecisionRow{ID: id, SessionID: sess.ID, Kind: "question",
			Payload: `{"question":"?"}`, CreatedAt: now, Deadline: now.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.windowTitle(); got != "AgentDesk — 2 waiting" {
		t.Fatalf("two wait: %q", got)
	}
	s.lang = "zh-CN"
	if got := s.windowTitle(); got != "AgentDesk — 2 项待处理" {
		t.Fatalf("two wait, in Chinese: %q", got)
	}
}
