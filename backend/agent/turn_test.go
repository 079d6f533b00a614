package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

func lastContains(t *testing.T, seen []string, want string) {
	t.Helper()
	if len(seen) == 0 || !strings.Contains(seen[len(seen)-1], want) {
		t.Fatalf("the model saw %q, want it to contain %q", seen, want)
	}
}

func TestChatSendsNoToolDefinitions(t *testing.T) {
	h := newHarness(t, script(`{"text":"Hello from chat."}`), harnessOpts{interaction: "chat"})
	h.send("what does this project do?", mode.FollowUpInput{})
	rec := h.recorded()
	if len(rec.Requests) != 1 || len(rec.Requests[0].Tools) != 0 {
		t.Fatalf("chat sent %d tool definitions", len(rec.Requests[0].Tools))
	}
	if turns := h.turns(); turns[0].ExecutionMode != "chat" || turns[0].Status != store.TurnDone {
		t.Fatalf("turn: %+v", turns[0])
	}
}

func TestChatRejectsShortcutsButClearIsLocal(t *testing.T) {
	h := newHarness(t, script(), harnessOpts{interaction: "chat"})
	if _, err := h.rt.Send(Input{SessionID: h.session, Text: "/goal ship it"}); err == nil || !strings.Contains(err.Error(), string(ShortcutInChat)) {
		t.Fatalf("/goal in chat: %v", err)
	}
	ack, err := h.rt.Send(Input{SessionID: h.session, Text: "/clear"})
	if err != nil || !ack.Cleared || len(h.recorded().Requests) != 0 || len(h.turns()) != 0 {
		t.Fatalf("/clear must be local: %+v %v", ack, err)
	}
}

func TestPlanDeniesWriteAndTheModelSeesTheCode(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"write","input":{"path":"notes.md","content":"x"}}]}`,
		`{"text":"Understood, I will only plan."}`), harnessOpts{override: "plan", permission: "full"})
	h.send("add notes", mode.FollowUpInput{})
	rec := h.recorded()
	lastContains(t, rec.resultsSeen(1), "WRITE_DISABLED_IN_READ_ONLY")
	if _, err := os.Stat(filepath.Join(h.workspace, "notes.md")); err == nil {
		t.Fatal("plan mode wrote a file")
	}
	calls := h.named(EventToolCall)
	if len(calls) != 1 || calls[0].Data.(ToolCallView).Verdict != "deny" {
		t.Fatalf("tool card: %+v", calls)
	}
	if h.turns()[0].ExecutionMode != "plan" {
		t.Fatalf("execution mode: %s", h.turns()[0].ExecutionMode)
	}
}

func TestRejectionReasonReachesTheModelVerbatimInTheSameTurn(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"rm -rf build"}}]}`,
		`{"text":"OK, I will not delete it."}`), harnessOpts{override: "execute"})
	reason := "Keep build/: the release script needs it — use `make clean` instead."
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		res := decision.Approval(decision.Reject, reason)
		return &res
	})
	h.send("clean up", mode.FollowUpInput{})
	rec := h.recorded()
	if len(rec.Requests) != 2 {
		t.Fatalf("%d requests; the rejection must reach the model in the same turn", len(rec.Requests))
	}
	lastContains(t, rec.resultsSeen(1), reason)
	lastContains(t, rec.resultsSeen(1), "REJECTED_BY_USER")
}

func TestATimedOutApprovalEndsDeclined(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"touch made-by-agent"}}]}`,
		`{"text":"No answer; I did not run it."}`), harnessOpts{override: "execute", timeout: 50 * time.Millisecond})
	h.send("make a file", mode.FollowUpInput{})
	lastContains(t, h.recorded().resultsSeen(1), "DECISION_TIMED_OUT")
	if _, err := os.Stat(filepath.Join(h.workspace, "made-by-agent")); err == nil {
		t.Fatal("a timed-out approval ran the command")
	}
	resolved := h.named(decision.EventResolved)
	if len(resolved) != 1 || resolved[0].Data.(decision.Resolved).Outcome != decision.TimedOut {
		t.Fatalf("resolved: %+v", resolved)
	}
}

func TestTwoDecisionsComeInFIFOOrder(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"echo first > a.txt"}},{"name":"bash","input":{"command":"echo second > b.txt"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute"})
	var order []string
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		order = append(order, string(d.Payload))
		if pending := h.reg.Pending(h.session); len(pending) != 1 {
			t.Errorf("%d decisions pending at once; the second must wait for the first", len(pending))
		}
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	h.send("write two files", mode.FollowUpInput{})
	if len(order) != 2 || !strings.Contains(order[0], "first") || !strings.Contains(order[1], "second") {
		t.Fatalf("order: %v", order)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(h.workspace, f)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

func TestApprovingThePlanLeavesPlanModeInsideTheTurn(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"exit_plan_mode","input":{"plan":"# Add a README\n\n1. Write README.md"}}]}`,
		`{"tool_calls":[{"name":"write","input":{"path":"README.md","content":"hello"}}]}`,
		`{"text":"Done."}`), harnessOpts{override: "plan", permission: "auto"})
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		if d.Kind == decision.KindPlanReview {
			if !strings.Contains(string(d.Payload), `"title":"Add a README"`) {
				t.Errorf("plan payload: %s", d.Payload)
			}
			res := decision.Plan(decision.ApprovePlan, "")
			return &res
		}
		return nil
	})
	h.send("plan a README", mode.FollowUpInput{})
	if p := h.pref(); p.Override == mode.Plan {
		t.Fatalf("still in plan mode: %+v", p)
	}
	if _, err := os.Stat(filepath.Join(h.workspace, "README.md")); err != nil {
		t.Fatalf("the approved plan was not carried out in the same turn: %v", err)
	}
	if n := len(h.named(EventModeChanged)); n != 1 {
		t.Fatalf("%d mode changes published", n)
	}
}

func TestKeepPlanningStaysInPlanWithTheFeedbackVerbatim(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"exit_plan_mode","input":{"plan":"# Rewrite everything"}}]}`,
		`{"text":"I will revise the plan."}`), harnessOpts{override: "plan"})
	feedback := "Too big. Split it into three steps, and keep the public API."
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		res := decision.Plan(decision.KeepPlanning, feedback)
		return &res
	})
	h.send("plan a rewrite", mode.FollowUpInput{})
	lastContains(t, h.recorded().resultsSeen(1), feedback)
	if p := h.pref(); p.Override != mode.Plan {
		t.Fatalf("left plan mode: %+v", p)
	}
}

func TestAFailedOnceTurnLeavesThePreferenceUnchanged(t *testing.T) {
	h := newHarness(t, script(`{"error":"the model is overloaded"}`), harnessOpts{})
	h.send("look around", mode.FollowUpInput{ExecutionOverride: str("plan"), Temporary: true})
	turns := h.turns()
	if len(turns) != 1 || turns[0].Status != store.TurnFailed || turns[0].ExecutionMode != "plan" || !turns[0].Temporary {
		t.Fatalf("turn: %+v", turns)
	}
	if p := h.pref(); p != mode.Default {
		t.Fatalf("a temporary override was saved: %+v", p)
	}
}

func TestAQueuedSwitchAppliesAtTheNextTurnNotEarlier(t *testing.T) {
	h := newHarness(t, script(`{"text":"working","delay_ms":300}`, `{"text":"chatting"}`), harnessOpts{})
	if _, err := h.rt.Send(Input{SessionID: h.session, Text: "do the thing"}); err != nil {
		t.Fatal(err)
	}
	queued, err := h.rt.Configure(h.session, mode.FollowUpInput{InteractionMode: str("chat")})
	if err != nil || !queued {
		t.Fatalf("the switch must be queued while the turn runs: %v %v", queued, err)
	}
	if p := h.pref(); p.Interaction != mode.Smart {
		t.Fatalf("the switch applied before the boundary: %+v", p)
	}
	if q, _ := h.st.Queue(h.session); q.Len() != 1 {
		t.Fatalf("queue not persisted: %d", q.Len())
	}
	h.wait()
	if p := h.pref(); p.Interaction != mode.Chat {
		t.Fatalf("the switch did not apply at the boundary: %+v", p)
	}
	h.send("and now?", mode.FollowUpInput{})
	turns := h.turns()
	if turns[0].ExecutionMode == "chat" || turns[1].ExecutionMode != "chat" {
		t.Fatalf("turn modes: %s then %s", turns[0].ExecutionMode, turns[1].ExecutionMode)
	}
}

func TestAMessageInAnotherModeWaitsBehindTheRunningTurn(t *testing.T) {
	h := newHarness(t, script(`{"text":"first","delay_ms":200}`, `{"text":"answering the steer"}`, `{"text":"in chat"}`), harnessOpts{})
	h.rt.Send(Input{SessionID: h.session, Text: "one"})
	same, err := h.rt.Send(Input{SessionID: h.session, Text: "also consider tests"})
	if err != nil || !same.Steered {
		t.Fatalf("a same-mode message must steer: %+v %v", same, err)
	}
	other, err := h.rt.Send(Input{SessionID: h.session, Text: "two", Mode: mode.FollowUpInput{InteractionMode: str("chat")}})
	if err != nil || !other.Queued {
		t.Fatalf("another mode must queue: %+v %v", other, err)
	}
	h.wait()
	turns := h.turns()
	if len(turns) != 2 || turns[1].Prompt != "two" || turns[1].ExecutionMode != "chat" {
		t.Fatalf("turns: %+v", turns)
	}
	evs, _ := h.st.Events(h.session)
	steered := false
	for _, e := range evs {
		if e.Type == eventlog.TypeUserMessage && strings.Contains(e.Payload, "also consider tests") {
			steered = strings.Contains(e.Payload, turns[0].ID) && strings.Contains(e.Payload, `"steer":true`)
		}
	}
	if !steered {
		t.Fatal("the steering message was not part of the running turn")
	}
}

func TestCancelIsPromptAndKeepsWhatWasCommitted(t *testing.T) {
	h := newHarness(t, script(`{"tool_calls":[{"name":"bash","input":{"command":"sleep 30"}}]}`), harnessOpts{override: "execute", permission: "full"})
	h.rt.Send(Input{SessionID: h.session, Text: "wait a while"})
	deadline := time.Now().Add(5 * time.Second)
	for len(h.named(EventToolCall)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	h.rt.Cancel(h.session)
	h.wait()
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	turns := h.turns()
	if turns[0].Status != store.TurnCancelled {
		t.Fatalf("status %s", turns[0].Status)
	}
	evs, _ := h.st.Events(h.session)
	if evs[len(evs)-1].Type != eventlog.TypeToolResult {
		t.Fatalf("the log must end with the cancelled call's result, got %s", evs[len(evs)-1].Type)
	}
}

func TestARestartMarksTheUnfinishedTurnInterrupted(t *testing.T) {
	dir := t.TempDir()
	st, _ := store.Open(dir)
	sess, _ := st.CreateSession(store.NewSession{Title: "t", Workspace: dir})
	started, _ := st.StartTurn(store.TurnStart{SessionID: sess.ID, Prompt: "hi", Preference: mode.Default})
	turn := started.Turn
	reg := decision.New(st, func(string, any) {}, decision.Options{})
	go reg.Ask(t.Context(), decision.Request{SessionID: sess.ID, TurnID: turn.ID, Kind: decision.KindApproval, Payload: map[string]string{"tool": "bash"}})
	for i := 0; i < 100 && len(reg.Pending(sess.ID)) == 0; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	st.Close() // the app stops mid-turn

	st2, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	turns, decisions, err := decision.New(st2, func(string, any) {}, decision.Options{}).Recover()
	if err != nil || turns != 1 || decisions != 1 {
		t.Fatalf("recover: %d turns, %d decisions, %v", turns, decisions, err)
	}
	got, _ := st2.Turns(sess.ID)
	if got[0].Status != store.TurnInterrupted {
		t.Fatalf("turn status %s", got[0].Status)
	}
}

func TestVerifiedTurnNeedsAPassingVerification(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"write","input":{"path":"x.txt","content":"1"}}]}`,
		`{"text":"All done!"}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"test -f x.txt"}}]}`,
		`{"text":"Verified: x.txt exists."}`), harnessOpts{override: "verified", permission: "full"})
	h.send("create x.txt", mode.FollowUpInput{})
	rec := h.recorded()
	if len(rec.Requests) != 4 || !strings.Contains(rec.Requests[2].Messages[len(rec.Requests[2].Messages)-1].Text, "verification") {
		t.Fatalf("the turn ended without being told to verify: %d requests", len(rec.Requests))
	}
	if s := h.turns()[0].Status; s != store.TurnDone {
		t.Fatalf("status %s", s)
	}
	// The reminder is logged as AgentDesk's, so no reader shows it as the person's message.
	log, _ := h.st.Log(h.session)
	var nudges int
	for _, r := range log {
		if m, ok := r.Payload.(eventlog.UserMessage); ok && m.Steer {
			if !m.Nudge || !IsNudge(m) {
				t.Fatalf("a steer the person never sent is not marked a nudge: %+v", m)
			}
			nudges++
		}
	}
	if nudges != 1 {
		t.Fatalf("%d nudges logged", nudges)
	}
}

// A nudge logged before entries carried the mark is still known, by its words; a person's
// steer is not.
func TestIsNudgeKnowsOlderEntriesByTheirText(t *testing.T) {
	old := eventlog.UserMessage{TurnID: "t", Text: verifyNudge, Steer: true}
	if !IsNudge(old) || !IsNudge(eventlog.UserMessage{TurnID: "t", Text: "x", Steer: true, Nudge: true}) {
		t.Fatal("a nudge was not recognized")
	}
	if IsNudge(eventlog.UserMessage{TurnID: "t", Text: "please also add tests", Steer: true}) ||
		IsNudge(eventlog.UserMessage{TurnID: "t", Text: verifyNudge}) {
		t.Fatal("the person's message was taken for a nudge")
	}
}

func TestVerifiedTurnThatNeverVerifiesIsNotDone(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"write","input":{"path":"x.txt","content":"1"}}]}`,
		`{"text":"Done."}`, `{"text":"Done."}`, `{"text":"I could not verify it."}`), harnessOpts{override: "verified", permission: "full"})
	h.send("create x.txt", mode.FollowUpInput{})
	if s := h.turns()[0].Status; s != TurnUnverified {
		t.Fatalf("status %s", s)
	}
}

func TestAllowForThisSessionBecomesAGrant(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute"})
	asked := 0
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		asked++
		res := decision.Approval(decision.AllowSession, "")
		return &res
	})
	h.send("say hi twice", mode.FollowUpInput{})
	if asked != 1 {
		t.Fatalf("asked %d times; the grant must cover the second call", asked)
	}
	if grants, _ := h.st.Grants(h.session); len(grants) != 1 || grants[0].Command != "echo hi" {
		t.Fatalf("grants: %+v", grants)
	}
	if rules, _ := h.st.Rules(); len(rules) != 0 {
		t.Fatalf("a session grant leaked into the rules: %+v", rules)
	}
}

func TestAlwaysAllowBecomesARuleForEverySession(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"go version"}}]}`,
		`{"text":"done"}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"go version"}}]}`,
		`{"text":"done again"}`), harnessOpts{override: "execute"})
	asked := 0
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		asked++
		res := decision.Approval(decision.AllowAlways, "")
		return &res
	})
	h.send("which go?", mode.FollowUpInput{})
	rules, _ := h.st.Rules()
	if len(rules) != 1 || rules[0].Command != "go version" || rules[0].Effect != "allow" {
		t.Fatalf("rules: %+v", rules)
	}
	h.session = h.newSession(harnessOpts{override: "execute"})
	h.send("which go, again?", mode.FollowUpInput{})
	if asked != 1 {
		t.Fatalf("asked %d times; the rule must cover the other session", asked)
	}
	if calls := h.named(EventToolCall); calls[len(calls)-1].Data.(ToolCallView).Layer != "rule" {
		t.Fatalf("the second call was not allowed by the rule: %+v", calls[len(calls)-1].Data)
	}
}
