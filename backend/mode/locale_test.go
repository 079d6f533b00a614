package mode

import (
	"testing"

	"agentdesk/backend/i18n"
)

// TestLocaleKeys checks that every key this package hands out has a message in every language.
func TestLocaleKeys(t *testing.T) {
	keys := []string{"error." + string(ChatWithOverride), "mode.label.unknown",
		"route.reason.chat", "route.reason.override", "route.reason.unrecognized", "route.reason.execute", "route.reason.continue_none"}
	for _, r := range routeRules {
		keys = append(keys, r.reasonKey)
	}
	for _, m := range ExecutionModes {
		keys = append(keys, m.LabelKey())
	}
	for _, i := range InteractionModes {
		keys = append(keys, Preference{Interaction: i}.LabelKey())
	}
	for _, o := range Overrides {
		keys = append(keys, Preference{Interaction: Smart, Override: o}.LabelKey())
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
