// Package worktreetest makes real git repositories for the tests of the packages that work on
// them (the worktrees, the sessions that use them, the app's facade).
package worktreetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo makes a real repository on the main branch with one commit of files (path -> body), and
// returns its folder.
func Repo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Git(t, dir, "init", "--quiet", "--initial-branch=main")
	for name, body := range files {
		Write(t, filepath.Join(dir, name), body)
	}
	Git(t, dir, "add", "--all")
	Git(t, dir, "commit", "--quiet", "-m", "start")
	return dir
}

// Git runs git in dir with a committer of its own and no signing, and returns its output trimmed.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgSign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes body to path, making its folders.
func Write(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
