package policy

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMaskedPathsAreTheTopmostMatchesOfDenyRules(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"secrets/key.pem", "secrets/sub/x", "src/prod.env", "src/main.go", "deep/a/b/.env", ".git/secrets/x"} {
		path := filepath.Join(ws, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rules := []Rule{{Effect: Deny, Path: "secrets/**"}, {Effect: Deny, Path: "*.env"}, {Effect: Deny, Path: ".env"},
		{Effect: Allow, Path: "src/**"}, {Effect: Deny, Command: "rm"}, {Effect: Deny, Path: "/etc/shadow"}, {Effect: Deny, Path: "/etc/*.conf"}}
	got, complete := MaskedPaths(rules, ws)
	want := []string{"/etc/shadow", filepath.Join(ws, "deep/a/b/.env"), filepath.Join(ws, "secrets"), filepath.Join(ws, "src/prod.env")}
	slices.Sort(got)
	if !complete || !slices.Equal(got, want) {
		t.Fatalf("got %q (complete %v), want %q", got, complete, want)
	}
	if got, _ := MaskedPaths([]Rule{{Effect: Allow, Path: "secrets/**"}}, ws); len(got) != 0 {
		t.Fatalf("an allow rule masked %q", got)
	}
}
