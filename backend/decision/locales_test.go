package decision

import (
	"testing"

	"agentdesk/backend/i18n"
)

// Every key this package hands to the UI has a message in every shipped language.
func TestEveryKeyHasAMessage(t *testing.T) {
	want := []string{ReasonNonInteractive, "error." + string(CodeCancelled), "error." + string(CodeInterrupted), "error." + string(PayloadUnreadable),
		"decision.setting.timeout.label", "decision.setting.timeout.help", "decision.approval.reason_placeholder"}
	for _, o := range Outcomes {
		want = append(want, "decision.outcome."+string(o))
		if k := o.ReasonKey(); k != "" {
			want = append(want, k)
		}
	}
	for _, k := range Kinds {
		// The composer's running chip says what the turn waits for, by kind.
		want = append(want, "decision.kind."+string(k), "composer.chip.waiting."+string(k))
	}
	for _, c := range choices {
		want = append(want, "decision.approval."+string(c))
	}
	for _, c := range planChoices {
		want = append(want, "decision.plan."+string(c))
	}
	for _, m := range i18n.Missing(want...) {
		t.Errorf("no message for %s", m)
	}
}

// A timed-out decision shows one line: no response, timed out (R-DEC-5).
func TestTimedOutLineIsLocalized(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	en, zh := b.T("en", TimedOut.ReasonKey(), nil), b.T("zh-CN", TimedOut.ReasonKey(), nil)
	if en != "No response, timed out." || zh == en || zh == TimedOut.ReasonKey() {
		t.Fatalf("en %q, zh-CN %q", en, zh)
	}
	gate := GateError(Resolution{Outcome: Rejected})
	if got := ToolErrorText(gate, func(k string, a map[string]any) string { return b.T("en", k, a) }); got != "Rejected by the user." {
		t.Fatalf("a rejection without a reason reads %q", got)
	}
}
