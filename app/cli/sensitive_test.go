package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/policy"
)

// `agentdesk settings get|set sensitive-paths` edits the list, "default" restores it, and
// `doctor --json` prints the list in force.
func TestSensitivePathsSetting(t *testing.T) {
	d := t.TempDir()
	doctor := func() []string {
		var rep struct {
			SensitivePaths []string `json:"sensitive_paths"`
		}
		_, out, _ := run(t, nil, "doctor", "--json", "--data-dir", d) // a failed check of the host is not ours
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.SensitivePaths
	}
	get := func() string {
		code, out, errOut := run(t, nil, "settings", "get", "sensitive-paths", "--data-dir", d)
		if code != 0 {
			t.Fatalf("get: %d %s", code, errOut)
		}
		return strings.TrimSpace(out)
	}
	if got := get(); got != strings.Join(policy.DefaultSensitive, "\n") {
		t.Fatalf("default: %q", got)
	}
	if got := doctor(); !slices.Equal(got, policy.DefaultSensitive) {
		t.Fatalf("doctor default: %q", got)
	}
	if code, _, errOut := run(t, nil, "settings", "set", "sensitive-paths", ".env, secrets/\n.env", "--data-dir", d); code != 0 {
		t.Fatalf("set: %s", errOut)
	}
	if got := get(); got != ".env\nsecrets/" {
		t.Fatalf("after set: %q", got)
	}
	if got := doctor(); !slices.Equal(got, []string{".env", "secrets/"}) {
		t.Fatalf("doctor after set: %q", got)
	}
	if code, _, _ := run(t, nil, "settings", "set", "sensitive-paths", "[", "--data-dir", d); code == 0 {
		t.Fatal("a malformed entry was accepted")
	}
	if code, _, errOut := run(t, nil, "settings", "set", "sensitive-paths", "", "--data-dir", d); code != 0 {
		t.Fatalf("empty: %s", errOut)
	}
	if got := get(); got != "" {
		t.Fatalf("emptied: %q", got)
	}
	if code, _, errOut := run(t, nil, "settings", "set", "sensitive-paths", "default", "--data-dir", d); code != 0 {
		t.Fatalf("default: %s", errOut)
	}
	if got := get(); got != strings.Join(policy.DefaultSensitive, "\n") {
		t.Fatalf("restored: %q", got)
	}
}
