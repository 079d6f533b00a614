package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitEnv is a controlled environment for the real git: no global or system config of the
// machine running the tests, so "plain git" means git's defaults.
func gitEnv(t *testing.T) []string {
	home := t.TempDir()
	env := without(os.Environ(), "GIT_")
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
}

func git(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	path, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is needed for this test (build/scripts/setup.sh installs it): %v", err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// plantBareRepo writes what makes git take dir itself for a bare repository whose config names
// a work tree and an fsmonitor command, and returns the file that command creates. Without
// repositoryformatversion, git 2.39 ignores core.worktree for an implicitly found bare
// repository and stops with "must be run in a work tree" before the fsmonitor runs.
func plantBareRepo(t *testing.T, dir string) string {
	t.Helper()
	pwned := filepath.Join(t.TempDir(), "PWNED")
	files := map[string]string{
		"HEAD": "ref: refs/heads/main\n",
		"config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n" +
			"\tfsmonitor = \"touch " + pwned + "\"\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"objects", "refs"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return pwned
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

func TestHardenedGitStopsAWorkspacePosingAsABareRepository(t *testing.T) {
	ws := t.TempDir()
	pwned := plantBareRepo(t, ws)
	plain := gitEnv(t)
	git(t, ws, plain, "status")
	if !exists(pwned) {
		t.Fatal("plain git status did not run the planted fsmonitor: the attack this test guards against did not reproduce")
	}
	os.Remove(pwned)
	out, err := git(t, ws, WithHardenedGit(plain, ws), "status")
	if exists(pwned) {
		t.Fatalf("hardened git status ran the fsmonitor: %s", out)
	}
	if err == nil || !strings.Contains(out, "safe.bareRepository") {
		t.Fatalf("git should refuse the implicit bare repository: %v %s", err, out)
	}
}

func TestHardenedGitStopsARepositoryFsmonitor(t *testing.T) {
	ws := t.TempDir()
	plain := gitEnv(t)
	if out, err := git(t, ws, plain, "init", "-q"); err != nil {
		t.Fatal(out)
	}
	pwned := filepath.Join(t.TempDir(), "PWNED")
	if out, err := git(t, ws, plain, "config", "core.fsmonitor", "touch "+pwned); err != nil {
		t.Fatal(out)
	}
	git(t, ws, plain, "status")
	if !exists(pwned) {
		t.Fatal("plain git status did not run the repository's fsmonitor")
	}
	os.Remove(pwned)
	if out, err := git(t, ws, WithHardenedGit(plain, ws), "status"); err != nil || exists(pwned) {
		t.Fatalf("hardened status failed or ran the fsmonitor: %v %s", err, out)
	}
}

func TestHardenedGitInASubfolderOfARealRepository(t *testing.T) {
	repo := t.TempDir()
	plain := gitEnv(t)
	if out, err := git(t, repo, plain, "init", "-q"); err != nil {
		t.Fatal(out)
	}
	clean := filepath.Join(repo, "clean")
	attacked := filepath.Join(repo, "attacked")
	for _, dir := range []string{clean, attacked} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := HardenedGitEnv(clean)
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_CEILING_DIRECTORIES=") }) {
		t.Fatalf("a subfolder of a checkout must keep discovery: %q", env)
	}
	out, err := git(t, clean, WithHardenedGit(plain, clean), "rev-parse", "--show-toplevel")
	real, _ := filepath.EvalSymlinks(repo)
	if err != nil || strings.TrimSpace(out) != real {
		t.Fatalf("hardened git did not find the enclosing repository: %v %q", err, out)
	}
	pwned := plantBareRepo(t, attacked)
	git(t, attacked, plain, "status")
	if !exists(pwned) {
		t.Fatal("plain git status in the subfolder did not run the planted fsmonitor")
	}
	os.Remove(pwned)
	if out, _ := git(t, attacked, WithHardenedGit(plain, attacked), "status"); exists(pwned) {
		t.Fatalf("hardened git status ran the fsmonitor: %s", out)
	}
}

func TestHardenedGitStopsDiscoveryAboveTheWorkspace(t *testing.T) {
	outer := t.TempDir()
	plain := gitEnv(t)
	ws := filepath.Join(outer, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	pwned := plantBareRepo(t, outer) // the folder above the workspace poses as a repository
	git(t, ws, plain, "status")
	if !exists(pwned) {
		t.Fatal("plain git status below the planted folder did not run its fsmonitor")
	}
	os.Remove(pwned)
	out, err := git(t, ws, WithHardenedGit(plain, ws), "status")
	if exists(pwned) || err == nil || !strings.Contains(out, "not a git repository") {
		t.Fatalf("hardened git looked above the workspace: %v %s", err, out)
	}
}

func TestWithHardenedGitDropsInheritedOverrides(t *testing.T) {
	env := WithHardenedGit([]string{"GIT_EXTERNAL_DIFF=evil", "GIT_DIR=/elsewhere", "PATH=/bin"}, t.TempDir())
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_EXTERNAL_DIFF=") || strings.HasPrefix(kv, "GIT_DIR=") {
			t.Fatalf("%q survived", kv)
		}
	}
	if !slices.Contains(env, "PATH=/bin") || !slices.Contains(env, "GIT_PAGER=cat") || !slices.Contains(env, "GIT_CONFIG_NOSYSTEM=1") {
		t.Fatalf("got %q", env)
	}
}
