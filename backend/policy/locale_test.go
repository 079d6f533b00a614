package policy

import (
	"testing"

	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
)

// TestLocaleKeys checks that every code and reason the gate can hand out has a message in every
// shipped language. The reasons are collected by running the gate over a spread of inputs.
func TestLocaleKeys(t *testing.T) {
	keys := map[string]bool{"gate.reason.unknown_tool": true, "gate.reason.rule_uncertain": true, "gate.reason.grant": true,
		"gate.reason.rule_allow": true, "gate.reason.unresolved_path": true, "gate.reason.protected.git": true,
		"gate.reason.protected.data_dir": true, "gate.reason.protected.autorun": true, "permission.label.unknown": true,
		"gate.reason.script_changed": true, "gate.reason.script_unverified": true, "gate.reason.script_unverifiable": true,
		"gate.reason.escalate.network": true, "gate.reason.escalate.unsandboxed": true, "gate.reason.no_sandbox": true,
		"gate.reason.sensitive": true, "gate.reason.sensitive_unmasked": true}
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
					keys[Evaluate(Input{SensitiveMasked: true, Mode: m, Permission: p, Call: call}).ReasonKey] = true
				}
			}
		}
	}
	list := make([]string, 0, len(keys))
	for k := range keys {
		list = append(list, k)
	}
	for _, m := range i18n.Missing(list...) {
		t.Errorf("no message for %s", m)
	}
}
