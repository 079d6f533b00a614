package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
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

// A turn waiting on a decision at Close is suspended: the decision stays pending and the turn
// running, the command does not run; the next start takes the turn up waiting on the same
// decision, and answering it carries the turn on to its end.
func TestCloseSuspendsAPendingDecisionForTheNextStart(t *testing.T) {
	script := `{"responses":[{"tool_calls":[{"name":"bash","input":{"command":"touch x"}}]},{"text":"made x"}]}`
	r := newRig(t, script, "ask")
	ack, err := r.h.Runtime.Send(agent.Input{SessionID: r.session, Text: "ask me"})
	if err != nil {
		t.Fatal(err)
	}
	asked := r.waitFor(t, decision.EventAsked).Data.(decision.Decision)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.h.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "x")); err == nil {
		t.Fatal("the unanswered command ran")
	}
	st, err := store.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if row, _ := st.Decision(asked.ID); row.Status != store.DecisionPending {
		t.Fatalf("decision row after close %+v", row)
	}
	again := r.reopen(t, st, script)
	back := r.waitFor(t, decision.EventAsked).Data.(decision.Decision)
	if back.ID != asked.ID || string(back.Payload) != string(asked.Payload) {
		t.Fatalf("taken up as %+v, asked as %+v", back, asked)
	}
	if got := again.Decisions.Pending(r.session); len(got) != 1 || got[0].ID != asked.ID {
		t.Fatalf("pending after the restart %+v", got)
	}
	if _, err := again.Decisions.Resolve(asked.ID, decision.Approval(decision.AllowOnce, "")); err != nil {
		t.Fatal(err)
	}
	ended := r.waitFor(t, agent.EventTurnEnded).Data.(agent.TurnEnded)
	if ended.TurnID != ack.TurnID || ended.Status != store.TurnDone {
		t.Fatalf("turn ended %+v", ended)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "x")); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}
}

// reopen starts a new host over st, as the next start of the app does, with the rig listening
// from before the host takes anything up.
func (r *rig) reopen(t *testing.T, st *store.Store, script string) *Host {
	t.Helper()
	prov, err := scripted.FromBytes("script", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	b := bus.New()
	b.Subscribe(func(e bus.Event) {
		select {
		case r.events <- e:
		default:
		}
	})
	h, err := New(st, Options{Provider: agent.Fixed(prov), Messages: msgs, DataDir: r.dir, Recover: true, Bus: b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
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

// A process that died while its turn waited on an approval (the rows say running and pending,
// and nothing suspended them): the next start takes the turn up on the same decision, while a
// turn that waited on nothing the person decides is marked interrupted.
func TestAStartTakesUpATurnWhoseProcessDied(t *testing.T) {
	script := `{"responses":[{"tool_calls":[{"name":"bash","input":{"command":"touch y"}}]},{"text":"made y"}]}`
	r := newRig(t, script, "ask")
	if err := r.h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	waiting := strand(t, st, r.session, "bash", `{"command":"touch y"}`, true)
	other, err := (&session.Service{Store: st}).Create(session.CreateInput{Title: "o", Workspace: r.workspace})
	if err != nil {
		t.Fatal(err)
	}
	streaming := strand(t, st, other.ID, "read", `{"path":"a"}`, false)
	st.Close()
	st, err = store.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	again := r.reopen(t, st, script)
	back := r.waitFor(t, decision.EventAsked).Data.(decision.Decision)
	if back.ID != waiting {
		t.Fatalf("asked %s, want the stranded decision %s", back.ID, waiting)
	}
	if _, err := again.Decisions.Resolve(back.ID, decision.Approval(decision.AllowOnce, "")); err != nil {
		t.Fatal(err)
	}
	if ended := r.waitFor(t, agent.EventTurnEnded).Data.(agent.TurnEnded); ended.Status != store.TurnDone {
		t.Fatalf("turn ended %+v", ended)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "y")); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}
	turns, err := st.Turns(other.ID)
	if err != nil || len(turns) != 1 || turns[0].ID != streaming || turns[0].Status != store.TurnInterrupted {
		t.Fatalf("the turn that waited on nothing: %+v, %v", turns, err)
	}
}

// strand records what a process leaves when it dies in the middle of a step: a running turn
// whose model asked for one call, and, when asked is set, the approval of that call pending. It
// returns the decision's id, or the turn's when nothing was asked.
func strand(t *testing.T, st *store.Store, sessionID, tool, input string, asked bool) string {
	t.Helper()
	started, err := st.StartTurn(store.TurnStart{SessionID: sessionID, Prompt: "go",
		Preference: mode.Preference{Interaction: mode.Smart, Override: mode.Execute}})
	if err != nil {
		t.Fatal(err)
	}
	turnID := started.Turn.ID
	call := eventlog.CallRecord{ID: "call-1", Name: tool, Input: json.RawMessage(input)}
	if _, err := st.AppendSteps(sessionID, eventlog.AssistantMessage{TurnID: turnID, ToolCalls: []eventlog.CallRecord{call}}); err != nil {
		t.Fatal(err)
	}
	if !asked {
		return turnID
	}
	row := store.DecisionRow{ID: "stranded-" + turnID, SessionID: sessionID, TurnID: turnID, Kind: string(decision.KindApproval),
		Payload: `{"tool":"bash","kind":"bash","summary":"touch y","command":"touch y"}`}
	if err := st.CreateDecision(row); err != nil {
		t.Fatal(err)
	}
	return row.ID
}
