//go:build linux

package sandbox

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/errs"
)

// requireLandlock fails, never skips: these machines have Landlock (ABI 7), and a sandbox that
// silently went missing must turn the suite red.
func requireLandlock(t *testing.T) Support {
	t.Helper()
	st := Status()
	if st.Kind != KindLandlock {
		t.Fatalf("no Landlock on this Linux kernel: %s", st.Reason)
	}
	return st
}

// sh runs script in the sandbox with p and returns its combined output and exit error.
func sh(t *testing.T, p Policy, script string, env ...string) (string, error) {
	t.Helper()
	cmd, err := Command(p, "/bin/sh", []string{"-c", script}, append(os.Environ(), env...))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = p.Workspace
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustSh(t *testing.T, p Policy, script string) string {
	t.Helper()
	out, err := sh(t, p, script)
	if err != nil {
		t.Fatalf("%q: %v\n%s", script, err, out)
	}
	return out
}

func policy(t *testing.T) Policy {
	return Policy{Workspace: t.TempDir(), TempDir: t.TempDir()}
}

func TestStatusReportsLandlockHere(t *testing.T) {
	st := requireLandlock(t)
	if st.ABI < 1 || st.Network != (st.ABI >= 4) || st.Scoped != (st.ABI >= 6) {
		t.Fatalf("inconsistent status %+v", st)
	}
	// TESTING.md: unprivileged user namespaces work on these machines.
	if !st.ProtectGit {
		t.Fatalf("namespaces should work here: %s", st.Reason)
	}
}

func TestWritesOnlyInsideTheWorkspaceAndTempDir(t *testing.T) {
	requireLandlock(t)
	p := policy(t)
	outside := t.TempDir()
	got := mustSh(t, p, "echo in > inside.txt && mkdir -p a/b && mv inside.txt a/b/moved.txt && echo private > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"")
	if _, err := os.Stat(filepath.Join(p.Workspace, "a/b/moved.txt")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "private") {
		t.Fatalf("TMPDIR is not writable: %q", got)
	}
	// Without namespaces Landlock refuses the write; with them the folder does not even exist.
	out, err := sh(t, p, "echo x > "+filepath.Join(outside, "x"))
	if err == nil {
		t.Fatalf("a write outside succeeded: %v %q", err, out)
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file outside exists: %v", err)
	}
	// The same write with the outside folder as workspace succeeds: the refusal above is the sandbox.
	mustSh(t, Policy{Workspace: outside}, "echo x > "+filepath.Join(outside, "x"))
}

// With namespaces the command sees only its view: what lies outside it, the data folder
// included, does not exist for it; the toolchain does.
func TestOnlyTheViewIsVisible(t *testing.T) {
	requireNamespaces(t)
	p := policy(t)
	p.DataDir = filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(filepath.Join(p.DataDir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.DataDir, "agentdesk.db"), []byte("secret sessions"), 0o600); err != nil {
		t.Fatal(err)
	}
	neighbour := filepath.Join(filepath.Dir(p.Workspace), "neighbour.txt")
	if err := os.WriteFile(neighbour, []byte("secret neighbour"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := mustSh(t, p, "head -c 4 /etc/hostname >/dev/null && ls /usr/bin >/dev/null && echo ok"); !strings.Contains(out, "ok") {
		t.Fatalf("the toolchain is not readable: %q", out)
	}
	for _, script := range []string{
		"cat " + neighbour,
		"cat " + filepath.Join(p.DataDir, "agentdesk.db"),
		"echo x > " + filepath.Join(p.DataDir, "new"),
		"mkdir " + filepath.Join(p.DataDir, "sub", "x"),
	} {
		if out, err := sh(t, p, script); err == nil || strings.Contains(out, "secret") {
			t.Errorf("%q was allowed: %q", script, out)
		}
	}
	if raw, _ := os.ReadFile(filepath.Join(p.DataDir, "agentdesk.db")); string(raw) != "secret sessions" {
		t.Fatalf("the database changed: %q", raw)
	}
}

func TestDataDirInsideTheWorkspaceStaysHidden(t *testing.T) {
	st := requireLandlock(t)
	if !st.ProtectGit {
		t.Fatalf("needs namespaces: %s", st.Reason)
	}
	p := policy(t)
	p.DataDir = filepath.Join(p.Workspace, ".agentdesk")
	if err := os.MkdirAll(p.DataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.DataDir, "db"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := sh(t, p, "cat .agentdesk/db; echo x > .agentdesk/new")
	if err == nil || strings.Contains(out, "secret") {
		t.Fatalf("the data folder in the workspace is reachable: %v %q", err, out)
	}
	if _, err := os.Stat(filepath.Join(p.DataDir, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file appeared in the data folder: %v", err)
	}
}

func TestDevicesStayUsable(t *testing.T) {
	requireLandlock(t)
	out := mustSh(t, policy(t), "echo gone > /dev/null && head -c 4 /dev/urandom | wc -c && head -c 2 /dev/zero | wc -c")
	if strings.Fields(out)[0] != "4" {
		t.Fatalf("got %q", out)
	}
}

func TestNetworkIsRefusedUnlessAllowed(t *testing.T) {
	st := requireLandlock(t)
	if !st.Network {
		t.Fatalf("Landlock ABI %d cannot filter TCP; these machines have ABI 7", st.ABI)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	// bash's /dev/tcp makes a plain connect(2), without needing curl in this package's tests.
	script := "exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(port) + " && echo connected"
	p := policy(t)
	if out, err := shBash(t, p, script); err == nil || strings.Contains(out, "connected") {
		t.Fatalf("connect succeeded in the sandbox: %q", out)
	}
	p.Network = true
	if out, err := shBash(t, p, script); err != nil || !strings.Contains(out, "connected") {
		t.Fatalf("connect with Network failed: %v %q", err, out)
	}
}

func shBash(t *testing.T, p Policy, script string) (string, error) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := Command(p, bash, []string{"-c", script}, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// All of .git is read-only; with the "git" escalation the rest of it becomes writable (commit,
// add, checkout) but hooks and config never do.
func TestGitMetadataIsReadOnly(t *testing.T) {
	requireNamespaces(t)
	p := policy(t)
	git := filepath.Join(p.Workspace, ".git")
	for _, dir := range []string{"hooks", "objects", "refs"} {
		if err := os.MkdirAll(filepath.Join(git, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(git, "config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, script := range []string{
		"echo '[core] fsmonitor = evil' >> .git/config",
		"echo evil > .git/hooks/pre-commit",
		"rm -rf .git/hooks",
		"mv .git .git-aside",
		"rm .git/config",
		"echo x > cfg && mv cfg .git/config",
	} {
		if out, err := sh(t, p, script); err == nil {
			t.Errorf("%q was allowed: %q", script, out)
		}
	}
	if raw, _ := os.ReadFile(filepath.Join(git, "config")); string(raw) != "[core]\n" {
		t.Fatalf(".git/config changed: %q", raw)
	}
	if _, err := os.Stat(filepath.Join(git, "hooks", "pre-commit")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a hook appeared: %v", err)
	}
	if out, err := sh(t, p, "echo x > .git/objects/new"); err == nil {
		t.Fatalf("a write into .git/objects succeeded without the escalation: %q", out)
	}
	p.GitWrite = true
	mustSh(t, p, "echo x > .git/objects/new && mkdir .git/refs/heads")
	for _, script := range []string{"echo evil > .git/hooks/pre-commit", "echo '[x]' >> .git/config", "mv .git .git-aside"} {
		if out, err := sh(t, p, script); err == nil {
			t.Errorf("with the escalation, %q was allowed: %q", script, out)
		}
	}
}

// requireNamespaces fails, never skips: these machines run user namespaces.
func requireNamespaces(t *testing.T) {
	t.Helper()
	if st := requireLandlock(t); !st.Namespaces {
		t.Fatalf("namespaces should work here: %s", st.Reason)
	}
}

func TestHelperFailsClosed(t *testing.T) {
	requireLandlock(t)
	p := policy(t)
	p.Workspace = filepath.Join(p.Workspace, "missing")
	cmd, err := Command(p, "/bin/sh", []string{"-c", "echo ran"}, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != helperFailed || strings.Contains(string(out), "ran") {
		t.Fatalf("the shell ran without its sandbox: %v %q", err, out)
	}
	if !strings.HasPrefix(string(out), "agentdesk sandbox: ") {
		t.Fatalf("no reason given: %q", out)
	}
}

func TestCommandNeedsTheHook(t *testing.T) {
	requireLandlock(t)
	hooked.Store(false)
	defer hooked.Store(true)
	_, err := Command(policy(t), "/bin/sh", []string{"-c", "true"}, nil)
	if errs.KindOf(err) != HelperMissing {
		t.Fatalf("got %v", err)
	}
}

// TestMissingHooksFolderCannotBeCreated: a repository without .git/hooks gets an empty one that
// is bound read-only, so the shell cannot create hooks there either.
func TestMissingHooksFolderCannotBeCreated(t *testing.T) {
	st := requireLandlock(t)
	if !st.ProtectGit {
		t.Fatalf("needs namespaces: %s", st.Reason)
	}
	p := policy(t)
	if err := os.MkdirAll(filepath.Join(p.Workspace, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := sh(t, p, "mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout"); err == nil {
		t.Fatalf("a hook was planted: %q", out)
	}
	if _, err := os.Stat(filepath.Join(p.Workspace, ".git/hooks/post-checkout")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the hook exists: %v", err)
	}
}

// TestDataDirHiddenWithoutNamespaces: where namespaces are unavailable, the Landlock rules alone
// (read granted on the data folder's siblings, not on "/") keep its contents unreadable.
func TestDataDirHiddenWithoutNamespaces(t *testing.T) {
	requireLandlock(t)
	p := policy(t)
	p.DataDir = filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(p.DataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.DataDir, "db"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	sibling := filepath.Join(filepath.Dir(p.DataDir), "sibling")
	if err := os.WriteFile(sibling, []byte("visible"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := "cat " + sibling + "; ls " + p.DataDir + "; cat " + filepath.Join(p.DataDir, "db")
	cmd, err := helperCommand(request{Policy: p, Shell: "/bin/sh", Args: []string{"-c", script}}, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "secret") || !strings.Contains(string(out), "visible") {
		t.Fatalf("got %v %q", err, out)
	}
}

// A linked work tree's .git is a file naming the repository's folders outside the workspace:
// they are shown read-only, so git reads there, and with the "git" escalation a commit works
// while the shared hooks stay out of reach.
func TestALinkedWorkTreeKeepsItsRepository(t *testing.T) {
	requireNamespaces(t)
	main := t.TempDir()
	gitRun := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gitRun(main, "init", "-q")
	gitRun(main, "commit", "-q", "--allow-empty", "-m", "first")
	p := policy(t)
	wt := filepath.Join(p.Workspace, "wt")
	gitRun(main, "worktree", "add", "-q", wt)
	p.Workspace = wt
	if out := mustSh(t, p, "git log --oneline && echo read-ok"); !strings.Contains(out, "first") {
		t.Fatalf("git cannot read the work tree's repository: %q", out)
	}
	if out, err := sh(t, p, "git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m nope"); err == nil {
		t.Fatalf("a commit succeeded without the escalation: %q", out)
	}
	p.GitWrite = true
	mustSh(t, p, "git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m second")
	if out, err := sh(t, p, "echo evil > "+filepath.Join(main, ".git", "hooks", "post-commit")); err == nil {
		t.Fatalf("the shared hooks were writable: %q", out)
	}
	if out, _ := exec.Command("git", "-C", main, "log", "--all", "--oneline").CombinedOutput(); !strings.Contains(string(out), "second") {
		t.Fatalf("the approved commit did not land: %s", out)
	}
}
