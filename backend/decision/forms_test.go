package decision

import "testing"

// Every kind has a form, and its payload is the type the kind's decoder reads (the visitor
// method it reaches is the kind's own).
func TestEveryKindHasItsForm(t *testing.T) {
	forms := Forms()
	if len(forms) != len(Kinds) {
		t.Fatalf("%d forms for %d kinds", len(forms), len(Kinds))
	}
	for _, kind := range Kinds {
		f, ok := forms[kind]
		if !ok || f.Payload == nil || f.Answer == nil {
			t.Fatalf("kind %s has no form", kind)
		}
		var s seen
		Visit(f.Payload, &s)
		if s.kind != kind {
			t.Errorf("the %s form's payload reads as %s", kind, s.kind)
		}
	}
}
