package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// fakeAgent is an honest stand-in for an external ACP agent: it reports what a real one
// would through the handler, in order, and answers with a stop reason.
type fakeAgent struct {
	mu      sync.Mutex
	prompts []external.Prompt
	opened  []external.Session
	info    external.Info
	running bool
	script  func(ctx context.Context, h external.Handler) (string, error)
}

func (f *fakeAgent) Open(ctx context.Context, s external.Session) (external.Info, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened = append(f.opened, s)
	f.running = true
	return f.info, nil
}

func (f *fakeAgent) Info(string) (external.Info, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.info, f.running
}

func (f *fakeAgent) Prompt(ctx context.Context, p external.Prompt, h external.Handler) (string, error) {
	f.mu.Lock()
	f.prompts = append(f.prompts, p)
	f.mu.Unlock()
	return f.script(ctx, h)
}

func externalHarness(t *testing.T, f external.Agents, o ...harnessOpts) *harness {
	opts := harnessOpts{}
	if len(o) > 0 {
		opts = o[0]
	}
	h := newHarness(t, script(), opts)
	h.rt.opts.External = f
	if _, err := h.st.SetExternalAgent(h.session, "fake-agent --acp"); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestExternalTurnIsRecordedLikeABuiltInOne(t *testing.T) {
	f := &fakeAgent{script: func(ctx context.Context, h external.Handler) (string, error) {
		h.Text("Running ")
		h.ToolCall(external.ToolCall{ID: "c1", Title: "Run tests", Kind: "execute", Status: "pending", Input: json.RawMessage(`{"command":"go test"}`)})
		ans, err := h.Permission(ctx, external.Permission{Call: external.ToolCall{ID: "c1"},
			Options: []external.Option{{ID: "ok", Kind: "allow_once"}, {ID: "no", Kind: "reject_once"}}})
		if err != nil || ans.OptionID != "ok" {
			t.Errorf("permission: %+v %v", ans, err)
		}
		h.ToolUpdate(external.ToolCall{ID: "c1", Status: "completed", Output: "PASS"})
		h.Text("done.")
		h.ModeChanged("plan")
		return "end_turn", nil
	}}
	h := externalHarness(t, f)
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	h.send("test it", mode.FollowUpInput{})
	turns := h.turns()
	if len(turns) != 1 || turns[0].Status != store.TurnDone {
		t.Fatalf("turns: %+v", turns)
	}
	if len(f.prompts) != 1 || f.prompts[0].Command != "fake-agent --acp" || f.prompts[0].ModeID != "smart" || f.prompts[0].Text != "test it" {
		t.Fatalf("prompt: %+v", f.prompts)
	}
	events, _ := h.st.Events(h.session)
	var types []string
	for _, e := range events {
		types = append(types, e.Type)
	}
	got := strings.Join(types, " ")
	// The words before the call, then the call once it is described, its result, the agent's own
	// switch, and the words after.
	if want := "mode.set message.user message.assistant message.assistant tool.result mode.set message.assistant"; got != want {
		t.Fatalf("log:\n got %s\nwant %s", got, want)
	}
	calls := h.named(EventToolCall)
	if len(calls) != 2 || len(h.named(EventToolDone)) != 1 || len(h.named(decision.EventAsked)) != 1 {
		t.Fatalf("the card, then its verdict; one decision and one result: %d %d %d", len(calls),
			len(h.named(EventToolDone)), len(h.named(decision.EventAsked)))
	}
	if first, last := calls[0].Data.(ToolCallView), calls[1].Data.(ToolCallView); first.Verdict != external.Verdict ||
		last.CallID != "c1" || last.Verdict != "ask" || last.Layer != "mode" {
		t.Fatalf("the card shows the gate's verdict once it asked: %+v then %+v", first, last)
	}
	if h.pref() != (mode.Preference{Interaction: mode.Smart, Override: mode.Plan}) {
		t.Fatalf("the agent's own switch to plan is ours: %+v", h.pref())
	}
}

func TestExternalSessionWithoutARuntimeFails(t *testing.T) {
	h := externalHarness(t, nil)
	h.rt.opts.External = nil
	h.send("hello", mode.FollowUpInput{})
	if turns := h.turns(); turns[0].Status != store.TurnFailed || !strings.HasPrefix(turns[0].Error, string(external.AgentUnavailable)) {
		t.Fatalf("%+v", turns[0])
	}
	if _, err := h.rt.Configure(h.session, mode.FollowUpInput{InteractionMode: str("chat")}); errs.KindOf(err) != external.ChatRefused {
		t.Fatalf("chat: %v", err)
	}
}

// Stock opencode runs a shell call without asking, and its first report says only where the
// call runs: the card follows the later report's command, and the agent is noted as one that
// did not ask.
func TestExternalCallRunWithoutAskingShowsItsCommand(t *testing.T) {
	f := &fakeAgent{info: external.Info{Modes: []external.AgentMode{{ID: "read-only", Name: "Read Only"}, {ID: "auto", Name: "Default"}},
		PlanModeID: "read-only", PlanMode: true},
		script: func(ctx context.Context, h external.Handler) (string, error) {
			h.ToolCall(external.ToolCall{ID: "s1", Title: "bash", Kind: "execute", Status: "pending", Input: json.RawMessage(`{"cwd":"/ws"}`)})
			h.ToolUpdate(external.ToolCall{ID: "s1", Status: "in_progress", Input: json.RawMessage(`{"command":["bash","-lc","echo hi > out.txt"]}`)})
			h.ToolUpdate(external.ToolCall{ID: "s1", Status: "completed", Output: ""})
			return "end_turn", nil
		}}
	h := externalHarness(t, f)
	h.send("go", mode.FollowUpInput{})
	calls := h.named(EventToolCall)
	if len(calls) == 0 {
		t.Fatal("no card")
	}
	for _, c := range calls {
		if v := c.Data.(ToolCallView); strings.Contains(v.Summary, "cwd") {
			t.Errorf("a card shows where the call runs as what it does: %q", v.Summary)
		}
	}
	if last := calls[len(calls)-1].Data.(ToolCallView); last.Summary != "echo hi > out.txt" || last.Verdict != external.Verdict {
		t.Fatalf("the card follows the command: %+v", last)
	}
	facts, err := h.st.AgentFacts()
	if err != nil {
		t.Fatal(err)
	}
	fact, ok := facts["fake-agent --acp"]
	if !ok || fact.Asked || fact.Calls != 1 || fact.PlanMode != "read-only" || len(fact.Modes) != 2 {
		t.Fatalf("the agent is noted as one that did not ask: %+v", facts)
	}
	// A Smart · Plan turn is not refused: the agent's read-only mode stands for plan.
	h.send("plan it", mode.FollowUpInput{ExecutionOverride: str("plan")})
	if turns := h.turns(); turns[len(turns)-1].Status != store.TurnDone {
		t.Fatalf("plan on a read-only mode: %+v", turns[len(turns)-1])
	}
}
