package app

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
)

// Issue 12: the sidebar's state is exact and live. session.state says running from the turn's
// start, counts the decisions waiting for the person, and says idle when the turn ends; a list
// read at any moment agrees with the events published so far (its seq orders it among them).
func TestSessionStateFollowsTheTurnAndItsDecisions(t *testing.T) {
	svc := newServices(t)
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"responses":[
		{"text":"asking","tool_calls":[{"name":"ask_user","input":{"question":"Which one?","options":["A","B"]}}]},
		{"text":"done"}]}`), 0o600)
	svc.override, _ = newScripted(script)
	sess, err := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var states []SessionState
	var listedWhileWaiting []Session
	// The decision is answered only after the list right after Send was read: otherwise the
	// whole turn may be over by then, on a loaded machine.
	checked := make(chan struct{})
	svc.Bus.Subscribe(func(e bus.Event) {
		switch e.Name {
		case EventSessionState:
			mu.Lock()
			states = append(states, e.Data.(SessionState))
			mu.Unlock()
		case decision.EventAsked:
			go func() {
				list, _ := (&Sessions{svc}).list(t)
				mu.Lock()
				listedWhileWaiting = list
				mu.Unlock()
				<-checked
				(&Decisions{svc}).Resolve(ResolveRequest{ID: e.Data.(decision.Decision).ID, Selected: []string{"A"}})
			}()
		}
	})
	ack, err := (&Composer{svc}).Send(SendRequest{SessionID: sess.ID, Text: "go"})
	if err != nil || ack.TurnID == "" {
		t.Fatalf("send: %+v %v", ack, err)
	}
	if list, _ := (&Sessions{svc}).list(t); !list[0].Running {
		t.Fatalf("the list right after Send must show the turn running: %+v", list[0])
	}
	close(checked)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	svc.Runtime.Wait(ctx, sess.ID)
	if err := svc.Bus.Sync(ctx); err != nil { // every subscriber has seen what was published
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	want := []SessionState{{Running: true}, {Running: true, Waiting: 1}, {Running: true}, {}}
	if len(states) != len(want) {
		t.Fatalf("states %+v", states)
	}
	for i, st := range states {
		if st.SessionID != sess.ID || st.Running != want[i].Running || st.Waiting != want[i].Waiting || (i > 0 && st.Seq <= states[i-1].Seq) {
			t.Fatalf("state %d: %+v (all: %+v)", i, st, states)
		}
	}
	if len(listedWhileWaiting) != 1 || listedWhileWaiting[0].Waiting != 1 || !listedWhileWaiting[0].Running {
		t.Fatalf("the list while a decision waits: %+v", listedWhileWaiting)
	}
	after, _ := (&Sessions{svc}).list(t)
	if after[0].Running || after[0].Waiting != 0 || after[0].StateSeq != states[len(states)-1].Seq {
		t.Fatalf("after the turn: %+v, last state %+v", after[0], states[len(states)-1])
	}
}
