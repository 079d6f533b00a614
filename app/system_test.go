package app

import (
	"testing"

	"agentdesk/backend/store"
)

// A notification says what each decision is about, read through the decision's own decoder; a
// payload that does not read still notifies, with the kind's name, so no decision waits unseen.
func TestNotificationBodiesReadEachKind(t *testing.T) {
	f := &System{newServices(t)}
	cases := []struct{ kind, payload, want string }{
		{"approval", `{"tool":"bash","summary":"rm -rf build"}`, "rm -rf build"},
		{"question", `{"question":"Which one?","options":["a"]}`, "Which one?"},
		{"plan_review", `{"plan":"# Tidy up\n","title":"Tidy up"}`, "Tidy up"},
		{"elicitation", `{"server":"fx","tool":"t","message":"Your name?"}`, "Your name?"},
		{"sampling", `{"server":"fx","tool":"t","model":"m"}`, f.s.T("composer.sampling.title", map[string]any{"Server": "fx"})},
		{"approval", `{"summary":"a question's text is not an approval's"}`, "Approval"},
		{"question", `["not","an","object"]`, "Question"},
	}
	for _, c := range cases {
		if got := f.decisionBody(store.DecisionRow{Kind: c.kind, Payload: c.payload}); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.kind, c.payload, got, c.want)
		}
	}
}
