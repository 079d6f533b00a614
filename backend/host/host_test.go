package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// TestMain lets bash re-execute this binary as the sandbox helper, and fails the package when
// a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	goleak.VerifyTestMain(m)
}

type rig struct {
	dir, workspace, session string
	h                       *Host
	events                  chan bus.Event
}

func newRig(t *testing.T, script, permission string) *rig {
	t.Helper()
	r := &rig{dir: t.TempDir(), workspace: t.TempDir(), events: make(chan bus.Event, 1024)}
	st, err := store.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := scripted.FromBytes("script", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r.h, err = New(st, Options{Provider: agent.Fixed(prov), Messages: msgs, DataDir: r.dir, Recover: true})
	if err != nil {
		t.Fatal(err)
	}
	r.h.Bus.Subscribe(func(e bus.Event) {
		select {
		case r.events <- e:
		default:
		}
	})
	override := "execute"
	v, err := (&session.Service{Store: st}).Create(session.CreateInput{Title: "t", Workspace: r.workspace,
		Permission: &permission, Mode: sessionMode(override)})
	if err != nil {
		t.Fatal(err)
	}
	r.session = v.ID
	t.Cleanup(func() { r.h.Close(context.Background()) }) // a no-op after the test's own
	return r
}

func sessionMode(override string) mode.FollowUpInput {
	return mode.FollowUpInput{ExecutionOverride: &override}
}

func (r *rig) waitFor(t *testing.T, name string) bus.Event {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e := <-r.events:
			if e.Name == name {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s", name)
		}
	}
}

// Close under a running turn: the turn is cancelled and awaited, its tool process killed, and
// only then is the store closed, so the turn's end is recorded; nothing is left running.
func TestCloseCancelsAndAwaitsARunningTurnBeforeClosingTheStore(t *testing.T) {
	r := newRig(t, `{"responses":[{"tool_calls":[{"name":"bash","input":{"command":"sleep 2; touch late"}}]},{"text":"never"}]}`, "full")
	ack, err := r.h.Runtime.Send(agent.Input{SessionID: r.session, Text: "wait"})
	if err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, agent.EventToolCall)
	time.Sleep(200 * time.Millisecond) // the shell is running
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := r.h.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("close took %v: the tool was not killed", took)
	}
	if _, err := r.h.Runtime.Send(agent.Input{SessionID: r.session, Text: "again"}); err == nil {
		t.Fatal("a closed host started a turn")
	}
	st, err := store.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	turns, err := st.Turns(r.session)
	if err != nil || len(turns) != 1 || turns[0].ID != ack.TurnID || turns[0].Status != store.TurnCancelled {
		t.Fatalf("turns %+v, %v", turns, err)
	}
	time.Sleep(3 * time.Second)
	if _, err := os.Stat(filepath.Join(r.workspace, "late")); err == nil {
		t.Fatal("the shell outlived the close")
	}
}

// A turn waiting on a decision at Close: the decision ends cancelled, the turn too.
func TestCloseCancelsAPendingDecision(t *testing.T) {
	r := newRig(t, `{"responses":[{"tool_calls":[{"name":"bash","input":{"command":"touch x"}}]},{"text":"never"}]}`, "ask")
	if _, err := r.h.Runtime.Send(agent.Input{SessionID: r.session, Text: "ask me"}); err != nil {
		t.Fatal(err)
	}
	asked := r.waitFor(t, decision.EventAsked).Data.(decision.Decision)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.h.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	resolved := r.waitFor(t, decision.EventResolved).Data.(decision.Resolved)
	if resolved.ID != asked.ID || resolved.Outcome != decision.Cancelled {
		t.Fatalf("resolved %+v", resolved)
	}
	ended := r.waitFor(t, agent.EventTurnEnded).Data.(agent.TurnEnded)
	if ended.Status != store.TurnCancelled {
		t.Fatalf("turn ended %+v", ended)
	}
	st, _ := store.Open(r.dir)
	defer st.Close()
	if row, _ := st.Decision(asked.ID); row.Status != store.DecisionCancelled {
		t.Fatalf("decision row %+v", row)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "x")); err == nil {
		t.Fatal("the unanswered command ran")
	}
}

// A Close whose deadline passes while a turn still runs leaves the store open under it.
func TestCloseLeavesTheStoreOpenWhenTurnsOutliveTheDeadline(t *testing.T) {
	r := newRig(t, `{"responses":[{"tool_calls":[{"name":"bash","input":{"command":"sleep 1"}}]},{"text":"done"}]}`, "full")
	if _, err := r.h.Runtime.Send(agent.Input{SessionID: r.session, Text: "wait"}); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, agent.EventToolCall)
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	err := r.h.Close(expired)
	if err == nil || !strings.Contains(err.Error(), "left open") {
		t.Fatalf("close with an expired deadline: %v", err)
	}
	if _, err := r.h.Store.Turns(r.session); err != nil {
		t.Fatalf("the store was closed under the turn: %v", err)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if err := r.h.Close(ctx); err != nil {
		t.Fatalf("second close: %v", err)
	}
}
