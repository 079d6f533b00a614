//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/sandbox"
)

// A workspace that holds the person's secrets (their home folder, say), in Full access: every
// way to read them by name is denied with a reason that says how to allow it, a grep of the
// whole workspace leaves them unread, and what the gate cannot see of a shell command (code it
// runs, a link, a computed name) finds them hidden by the sandbox.
func TestAttackSensitiveFilesInFull(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatal("this test needs the namespaced sandbox, which this machine offers (TESTING.md)")
	}
	d, ws := t.TempDir(), t.TempDir()
	mustWrite(t, filepath.Join(ws, ".ssh/id_ed25519"), "SSH-PRIVATE-KEY")
	mustWrite(t, filepath.Join(ws, ".aws/credentials"), "AWS-SECRET")
	mustWrite(t, filepath.Join(ws, ".env"), "TOKEN=ENV-SECRET")
	mustWrite(t, filepath.Join(ws, "main.go"), "package main // TOKEN")
	mustWrite(t, filepath.Join(ws, "peek.sh"), "cat .env .aws/credentials .ssh/id_ed25519\n")
	if err := os.Symlink(".env", filepath.Join(ws, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{
		{"name": "read", "input": map[string]any{"path": ".ssh/id_ed25519"}},
		{"name": "read", "input": map[string]any{"path": "notes.txt"}},
		{"name": "grep", "input": map[string]any{"pattern": "SECRET|PRIVATE|TOKEN"}},
		write(".env", "TOKEN=planted"),
		bash("cat .aws/credentials"),
		bash("sh peek.sh"),
		bash("cat notes.txt"),
		bash("cat $(printf '%s' .e)nv && echo read-it"),
	}})
	if len(results) != 8 {
		t.Fatalf("results %q", results)
	}
	for i, r := range results {
		for _, secret := range []string{"SSH-PRIVATE-KEY", "AWS-SECRET", "ENV-SECRET"} {
			if strings.Contains(r, secret) {
				t.Errorf("call %d read %s: %q", i, secret, r)
			}
		}
	}
	for _, i := range []int{0, 1, 3, 4, 6} {
		if !strings.Contains(results[i], "SENSITIVE_PATH") && !strings.Contains(results[i], "sensitive paths") {
			t.Errorf("call %d was not refused as sensitive: %q", i, results[i])
		}
		if !strings.Contains(results[i], "Settings") {
			t.Errorf("call %d does not say how to allow it: %q", i, results[i])
		}
	}
	if !strings.Contains(results[2], "main.go") || !strings.Contains(results[2], "Skipped") {
		t.Errorf("grep: %q", results[2])
	}
	if !strings.Contains(results[5], "No such file") || !strings.Contains(results[7], "read-it") {
		t.Errorf("the sandbox's view: %q, %q", results[5], results[7])
	}
	if got, _ := os.ReadFile(filepath.Join(ws, ".env")); string(got) != "TOKEN=ENV-SECRET" {
		t.Errorf(".env changed: %q", got)
	}
}
