package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// fakeAgent is an honest stand-in for an external ACP agent: it reports what a real one
// would through the handler, in order, and answers with a stop reason.
type fakeAgent struct {
	prompts []ExternalPrompt
	script  func(ctx context.Context, h ExternalHandler) (string, error)
}

func (f *fakeAgent) Prompt(ctx context.Context, p ExternalPrompt, h ExternalHandler) (string, error) {
	f.prompts = append(f.prompts, p)
	return f.script(ctx, h)
}

func externalHarness(t *testing.T, f ExternalAgents) *harness {
	h := newHarness(t, script(), harnessOpts{})
	h.rt.opts.External = f
	if _, err := h.st.SetExternalAgent(h.session, "fake-agent --acp"); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestModeIDsRoundTrip(t *testing.T) {
	for _, id := range ModeIDs() {
		in, err := ModeInput(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		fu, err := mode.ValidateFollowUp(mode.Preference{Interaction: mode.Smart, Override: mode.Debug}, in)
		if err != nil || ModeID(fu.Preference) != id {
			t.Fatalf("%s reads back as %q (%v)", id, ModeID(fu.Preference), err)
		}
	}
	if _, err := ModeInput("agent"); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("an unknown id: %v", err)
	}
}

func TestExternalTurnIsRecordedLikeABuiltInOne(t *testing.T) {
	f := &fakeAgent{script: func(ctx context.Context, h ExternalHandler) (string, error) {
		h.Text("Running ")
		h.ToolCall(ExternalToolCall{ID: "c1", Title: "Run tests", Kind: "execute", Status: "pending", Input: json.RawMessage(`{"command":"go test"}`)})
		opt, err := h.Permission(ctx, ExternalPermission{Call: ExternalToolCall{ID: "c1"},
			Options: []ExternalOption{{ID: "ok", Kind: "allow_once"}, {ID: "no", Kind: "reject_once"}}})
		if err != nil || opt != "ok" {
			t.Errorf("permission: %q %v", opt, err)
		}
		h.ToolUpdate(ExternalToolCall{ID: "c1", Status: "completed", Output: "PASS"})
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
	if want := "mode.set message.user message.assistant tool.result mode.set message.assistant"; got != want {
		t.Fatalf("log:\n got %s\nwant %s", got, want)
	}
	if len(h.named(EventToolCall)) != 1 || len(h.named(EventToolDone)) != 1 || len(h.named(decision.EventAsked)) != 1 {
		t.Fatalf("tool.call, tool.result and decision.asked are published once each")
	}
	if h.pref() != (mode.Preference{Interaction: mode.Smart, Override: mode.Plan}) {
		t.Fatalf("the agent's own switch to plan is ours: %+v", h.pref())
	}
}

func TestExternalSessionWithoutARuntimeFails(t *testing.T) {
	h := externalHarness(t, nil)
	h.rt.opts.External = nil
	h.send("hello", mode.FollowUpInput{})
	if turns := h.turns(); turns[0].Status != store.TurnFailed || !strings.HasPrefix(turns[0].Error, string(ExternalAgentUnavailable)) {
		t.Fatalf("%+v", turns[0])
	}
	if _, err := h.rt.Configure(h.session, mode.FollowUpInput{InteractionMode: str("chat")}); errs.KindOf(err) != ChatWithExternalAgent {
		t.Fatalf("chat: %v", err)
	}
}
