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
