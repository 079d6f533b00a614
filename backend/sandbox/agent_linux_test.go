//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An external agent in a read-only mode sees the workspace but cannot change it, while its own
// state folder stays writable, and a read-only folder inside that state folder stays read-only.
func TestWorkspaceReadOnlyKeepsTheAgentsOwnStateWritable(t *testing.T) {
	if !requireLandlock(t).Namespaces {
		t.Skip("no namespaces here: an agent's state folder is shown only inside its own root")
	}
	state := filepath.Join(t.TempDir(), "state")
	locked := filepath.Join(state, "bin")
	if err := os.MkdirAll(locked, 0o700); err != nil {
		t.Fatal(err)
	}
	p := policy(t)
	p.WorkspaceReadOnly, p.Writable, p.Expose = true, []string{state}, []string{locked}
	if err := os.WriteFile(filepath.Join(p.Workspace, "README"), []byte("readme"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustSh(t, p, "cat README && echo saved > "+state+"/session.json && echo ok"); !strings.Contains(out, "readme") {
		t.Fatalf("the workspace is unreadable or the state folder unwritable: %q", out)
	}
	for _, script := range []string{"echo x > new", "rm README", "echo x > " + locked + "/planted"} {
		if out, err := sh(t, p, script); err == nil {
			t.Errorf("%q changed a read-only folder: %q", script, out)
		}
	}
	if _, err := os.Stat(filepath.Join(p.Workspace, "new")); !os.IsNotExist(err) {
		t.Fatalf("a file landed in the read-only workspace: %v", err)
	}
	if raw, err := os.ReadFile(filepath.Join(state, "session.json")); err != nil || string(raw) != "saved\n" {
		t.Fatalf("the agent's state did not land: %v %q", err, raw)
	}
}
