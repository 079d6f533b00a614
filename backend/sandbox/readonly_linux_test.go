//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A read-only call (Auto's read-only class, run unasked) reads the workspace and the toolchain
// and nothing else, whatever spelling reaches out: a link committed in the repository, a file
// list. It writes nothing in the workspace. Both with namespaces and with Landlock alone.
func TestReadOnlyCallsReadOnlyTheWorkspaceAndTheToolchain(t *testing.T) {
	requireLandlock(t)
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(secret, []byte("secret key"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, namespaced := range []bool{true, false} {
		p := policy(t)
		p.ReadOnly = true
		if err := os.WriteFile(filepath.Join(p.Workspace, "README"), []byte("readme"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secret, filepath.Join(p.Workspace, "docs")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.Workspace, "f0"), []byte(secret+"\x00"), 0o644); err != nil {
			t.Fatal(err)
		}
		run := func(script string) (string, error) {
			req := request{Policy: p, Shell: "/bin/sh", Args: []string{"-c", script}}
			if namespaced {
				req.Namespaces, req.NewNet, req.View = true, true, DefaultView()
			}
			cmd, err := helperCommand(req, os.Environ())
			if err != nil {
				t.Fatal(err)
			}
			cmd.Dir = p.Workspace
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		if out, err := run("cat README && ls /usr/bin >/dev/null && echo ok"); err != nil || !strings.Contains(out, "ok") {
			t.Fatalf("namespaced=%v: the workspace or the toolchain is unreadable: %v %q", namespaced, err, out)
		}
		refused := []string{"cat docs", "cat " + secret, "echo x > new"}
		if namespaced {
			// Landlock does not cover stat: without namespaces du still learns the size.
			refused = append(refused, "du -a --files0-from=f0")
		}
		for _, script := range refused {
			if out, err := run(script); err == nil || strings.Contains(out, "secret key") {
				t.Errorf("namespaced=%v: %q was allowed: %v %q", namespaced, script, err, out)
			}
		}
	}
}
