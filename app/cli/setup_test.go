package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/sandbox"
)

// From the command line, worktree-copy and worktree-setup are set like any setting (a glob out
// of the repository refused), and `sessions create --worktree` copies the named files and runs
// the person's set-up there; the repository's proposal runs only with --setup, said first.
func TestTheCommandLinePreparesANewWorktree(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatal("this machine has namespaces: the set-up must be tested in its sandbox")
	}
	repo, data := startRepo(t), t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".agentdesk"), 0o755)
	os.WriteFile(filepath.Join(repo, ".agentdesk", "worktree.json"), []byte(`{"setup": "touch proposed.txt"}`), 0o644)
	gitOut(t, repo, "add", "--all")
	gitOut(t, repo, "commit", "--quiet", "-m", "propose a set-up")
	os.WriteFile(filepath.Join(repo, "local.yaml"), []byte("port: 1\n"), 0o644)
	if code, _, errOut := run(t, nil, "settings", "set", "worktree-copy", "../x", "--data-dir", data); code == 0 {
		t.Fatalf("a glob out of the repository was accepted: %s", errOut)
	}
	for key, value := range map[string]string{"worktree-copy": "local.yaml", "worktree-setup": "touch mine.txt"} {
		if code, _, errOut := run(t, nil, "settings", "set", key, value, "--data-dir", data); code != 0 {
			t.Fatalf("settings set %s: %s", key, errOut)
		}
	}
	if _, out, _ := run(t, nil, "settings", "get", "worktree-setup", "--data-dir", data); strings.TrimSpace(out) != "touch mine.txt" {
		t.Fatalf("worktree-setup reads %q", out)
	}
	create := func(extra ...string) (ws, errOut string) {
		t.Helper()
		args := append([]string{"sessions", "create", "--worktree", "--workspace", repo, "--json", "--data-dir", data}, extra...)
		code, out, errOut := run(t, nil, args...)
		if code != 0 {
			t.Fatalf("create: %d %s %s", code, out, errOut)
		}
		var v struct{ Workspace string }
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		return v.Workspace, errOut
	}
	has := func(ws, name string) bool { _, err := os.Stat(filepath.Join(ws, name)); return err == nil }
	plain, _ := create()
	if !has(plain, "local.yaml") || !has(plain, "mine.txt") || has(plain, "proposed.txt") {
		t.Fatalf("without --setup: copied %v, own set-up %v, repository's %v", has(plain, "local.yaml"), has(plain, "mine.txt"), has(plain, "proposed.txt"))
	}
	ticked, errOut := create("--setup")
	if !has(ticked, "proposed.txt") || !strings.Contains(errOut, "touch proposed.txt") {
		t.Fatalf("with --setup: %s", errOut)
	}
}
