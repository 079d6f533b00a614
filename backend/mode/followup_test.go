package mode

import (
	"testing"

	"agentdesk/backend/errs"
)

func ptr(s string) *string { return &s }

func TestValidateFollowUp(t *testing.T) {
	smartPlan := Preference{Interaction: Smart, Override: Plan}
	chat := Preference{Interaction: Chat}
	cases := []struct {
		name    string
		session Preference
		in      FollowUpInput
		want    Preference
		save    bool
		err     errs.Kind
	}{
		{"omitted fields take the session's preference", smartPlan, FollowUpInput{}, smartPlan, false, ""},
		{"an omitted override keeps the session's override", smartPlan, FollowUpInput{InteractionMode: ptr("smart")}, smartPlan, false, ""},
		{"an empty override clears it", smartPlan, FollowUpInput{InteractionMode: ptr("smart"), ExecutionOverride: ptr("")}, Default, true, ""},
		{"switching to chat drops the session's override", smartPlan, FollowUpInput{InteractionMode: ptr("chat")}, chat, true, ""},
		{"an override from chat needs smart", chat, FollowUpInput{InteractionMode: ptr("smart"), ExecutionOverride: ptr("debug")}, Preference{Interaction: Smart, Override: Debug}, true, ""},
		{"chat with an explicit override is invalid", Default, FollowUpInput{InteractionMode: ptr("chat"), ExecutionOverride: ptr("plan")}, Preference{}, false, ChatWithOverride},
		{"an override on a chat session is invalid", chat, FollowUpInput{ExecutionOverride: ptr("plan")}, Preference{}, false, ChatWithOverride},
		{"a retired interaction spelling is rejected", Default, FollowUpInput{InteractionMode: ptr("agent")}, Preference{}, false, errs.InvalidValue},
		{"an unknown override is rejected", Default, FollowUpInput{ExecutionOverride: ptr("propose")}, Preference{}, false, errs.InvalidValue},
		{"a temporary override applies but is not saved", Default, FollowUpInput{ExecutionOverride: ptr("verified"), Temporary: true}, Preference{Interaction: Smart, Override: Verified}, false, ""},
		{"an unchanged preference is not saved again", chat, FollowUpInput{InteractionMode: ptr("chat")}, chat, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ValidateFollowUp(c.session, c.in)
			if c.err != "" {
				if errs.KindOf(err) != c.err {
					t.Fatalf("err = %v, want %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Preference != c.want || got.Save != c.save {
				t.Fatalf("got %+v, want %+v save=%v", got, c.want, c.save)
			}
		})
	}
}

func TestPreferenceLabels(t *testing.T) {
	cases := map[Preference]string{
		{Interaction: Smart}:                 "mode.label.smart",
		{Interaction: Chat}:                  "mode.label.chat",
		{Interaction: Smart, Override: Plan}: "mode.label.smart_plan",
	}
	for p, want := range cases {
		if got := p.LabelKey(); got != want {
			t.Errorf("%+v label %q, want %q", p, got, want)
		}
	}
}

// Without the router, plain Smart runs as execute; Chat and an override run as themselves.
func TestUnroutedPreference(t *testing.T) {
	cases := map[Preference]ExecutionMode{
		{Interaction: Chat}:                     ModeChat,
		{Interaction: Smart}:                    ModeExecute,
		{Interaction: Smart, Override: Plan}:    ModePlan,
		{Interaction: Smart, Override: Analyze}: ModeAnalyze,
		{Interaction: Smart, Override: Debug}:   ModeDebug,
	}
	for p, want := range cases {
		if got := p.Unrouted(); got != want {
			t.Errorf("%+v runs as %q, want %q", p, got, want)
		}
	}
}
