package llm

import (
	"encoding/json"
	"testing"
)

func TestInputAlwaysYieldsJSON(t *testing.T) {
	for raw, want := range map[string]string{
		"":                 `{}`,
		"  ":               `{}`,
		` {"a": 1} `:       `{"a": 1}`,
		`{"a": `:           `"{\"a\": "`,
		`{"command":"ls"}`: `{"command":"ls"}`,
	} {
		got := Input([]byte(raw))
		if string(got) != want || !json.Valid(got) {
			t.Errorf("Input(%q) = %s, want %s", raw, got, want)
		}
	}
}

func TestRedact(t *testing.T) {
	if got := Redact("bad key sk-1 here, sk-1", "sk-1"); got != "bad key [redacted] here, [redacted]" {
		t.Fatal(got)
	}
	if got := Redact("no secret", ""); got != "no secret" {
		t.Fatal(got)
	}
}
