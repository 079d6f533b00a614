package policy

import (
	"encoding/json"
	"testing"

	"agentdesk/backend/mode"
	"agentdesk/locales"
)

// TestLocaleKeys checks that every code and reason the gate can hand out has a message in every
// shipped language. The reasons are collected by running the gate over a spread of inputs.
func TestLocaleKeys(t *testing.T) {
	keys := map[string]bool{"gate.reason.unknown_tool": true, "gate.reason.rule_uncertain": true, "gate.reason.grant": true,
		"gate.reason.rule_allow": true, "gate.reason.unresolved_path": true, "gate.reason.protected.git": true,
		"gate.reason.protected.data_dir": true, "permission.label.unknown": true}
	for _, c := range Codes {
		keys["error."+string(c)] = true
	}
	for _, p := range PermissionModes {
		keys[p.LabelKey()] = true
	}
	for _, m := range append(mode.ExecutionModes, "agent") {
		for _, p := range append(PermissionModes, "bypass") {
			for _, k := range Kinds {
				for _, inside := range []bool{true, false} {
					call := fuzzCall(k, inside)
					keys[Evaluate(Input{Mode: m, Permission: p, Call: call}).ReasonKey] = true
				}
			}
		}
	}
	for _, lang := range locales.Languages {
		b, err := locales.FS.ReadFile("core." + lang + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var msgs map[string]string
		if err := json.Unmarshal(b, &msgs); err != nil {
			t.Fatal(err)
		}
		for k := range keys {
			if msgs[k] == "" {
				t.Errorf("%s: no message for %q", lang, k)
			}
		}
	}
}
