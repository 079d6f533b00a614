package external

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"testing"
)

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

func TestPlanModeMapsPlanLikeModes(t *testing.T) {
	cases := []struct {
		modes []AgentMode
		want  string
	}{
		{[]AgentMode{{"build", "Build"}, {"plan", "Plan"}}, "plan"},                                                 // opencode
		{[]AgentMode{{"read-only", "Read Only"}, {"auto", "Default"}, {"full-access", "Full Access"}}, "read-only"}, // codex-acp
		{[]AgentMode{{"default", "Always Ask"}, {"acceptEdits", "Accept Edits"}, {"plan", "Plan Mode"}}, "plan"},    // claude-code-acp
		{[]AgentMode{{"code", "Code"}, {"ask", "Ask"}}, "ask"},
		{[]AgentMode{{"auto", "Auto"}, {"readonly", "Read only"}, {"plan-b", "Other"}}, "plan-b"},
		{[]AgentMode{{"task", "Task"}, {"full", "Full"}}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got := PlanMode(c.modes); got != c.want {
			t.Errorf("%v: %q, want %q", c.modes, got, c.want)
		}
	}
}
