//go:build unix

package tool

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/mode"
	"agentdesk/backend/sandbox"
)

// requireSandbox fails, never skips, on Linux: these machines have Landlock, and a sandbox that
// went missing must turn the suite red. Elsewhere there is no kernel sandbox to test.
func requireSandbox(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is a Linux feature")
	}
	if st := sandbox.Status(); st.Kind != sandbox.KindLandlock {
		t.Fatalf("no Landlock on this Linux kernel: %s", st.Reason)
	}
}

// TestBashSandboxRefusesWritesOutsideAndTheNetwork runs what Full access runs (zero
// ShellOptions) and shows the kernel refusing a write outside the workspace and a connection to
// a loopback server; the same command unsandboxed does both, so the test can fail.
func TestBashSandboxRefusesWritesOutsideAndTheNetwork(t *testing.T) {
	requireSandbox(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("curl is needed (build/scripts/setup.sh installs it): %v", err)
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "served")
	}))
	defer srv.Close()
	outside := fmt.Sprintf("/tmp/outside-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { os.Remove(outside) })
	cmd := fmt.Sprintf("sh -c 'echo x > %s; curl -sS --max-time 3 %s/'", outside, srv.URL)

	res := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, bashInputOf(t, cmd, 0))
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the sandbox let the command write %s: %v", outside, err)
	}
	if !res.IsError || strings.Contains(res.Output, "served") || hits.Load() != 0 {
		t.Errorf("the sandbox let curl connect (%d requests): %q", hits.Load(), res.Output)
	}
	// Without namespaces Landlock refuses both; with them the write lands in the command's own
	// /tmp, gone with it, and no server is reachable from its network.
	if !sandbox.Status().Namespaces && !strings.Contains(res.Output, "Permission denied") {
		t.Errorf("the refusals should be the kernel's: %q", res.Output)
	}

	network := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir(), Shell: ShellOptions{Network: true}}, bashInputOf(t, cmd, 0))
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) || !strings.Contains(network.Output, "served") {
		t.Errorf("Network should allow the connection and nothing else: %q", network.Output)
	}

	free := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir(), Shell: ShellOptions{Unsandboxed: true}}, bashInputOf(t, cmd, 0))
	if _, err := os.Stat(outside); err != nil || free.IsError || !strings.Contains(free.Output, "served") {
		t.Fatalf("unsandboxed, the same command should write and connect: %v %q", err, free.Output)
	}
	if hits.Load() != 2 {
		t.Fatalf("the server saw %d requests, want 2 (network and unsandboxed)", hits.Load())
	}
}

func TestBashSandboxKeepsTheDataDirAndGitMetadata(t *testing.T) {
	requireSandbox(t)
	ws := workspace(t, map[string]string{".git/config": "[core]\n", ".git/hooks/README": "x"})
	data := t.TempDir()
	env := Env{Workspace: ws, Shell: ShellOptions{DataDir: data}}
	for _, cmd := range []string{
		"echo x > " + filepath.Join(data, "f"),
		"echo '[core] fsmonitor = evil' >> .git/config",
		"echo evil > .git/hooks/pre-commit",
	} {
		if res := mustRun(t, mode.ToolBash, env, bashInputOf(t, cmd, 0)); !res.IsError {
			t.Errorf("%q was allowed: %q", cmd, res.Output)
		}
	}
	if entries, _ := os.ReadDir(data); len(entries) != 0 {
		t.Errorf("the data folder changed: %v", entries)
	}
	if raw, _ := os.ReadFile(filepath.Join(ws, ".git/config")); string(raw) != "[core]\n" {
		t.Errorf(".git/config changed: %q", raw)
	}
	if res := mustRun(t, mode.ToolBash, env, bashInputOf(t, "echo ok > inside && cat inside", 0)); res.Output != "ok\n[exit code: 0]" {
		t.Errorf("the workspace is not writable: %q", res.Output)
	}
}

// TestBashTempDirIsPrivateAndRemoved: TMPDIR is a fresh folder the command may write, gone after
// the call even when the command locked a folder inside it.
func TestBashTempDirIsPrivateAndRemoved(t *testing.T) {
	cmd := `echo "$TMPDIR"; mkdir -p "$TMPDIR/d/e" && echo t > "$TMPDIR/d/e/f" && chmod 000 "$TMPDIR/d" && echo wrote`
	res := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, bashInputOf(t, cmd, 0))
	lines := strings.Split(res.Output, "\n")
	tmp := lines[0]
	if res.IsError || len(lines) < 2 || lines[1] != "wrote" {
		t.Fatalf("got %q", res.Output)
	}
	if sandbox.Status().Namespaces {
		// The command's own /tmp, a tmpfs that ends with its mount namespace.
		if tmp != "/tmp" {
			t.Fatalf("TMPDIR is %q, not the namespace's private /tmp", tmp)
		}
		return
	}
	if !strings.Contains(filepath.Base(tmp), "agentdesk-sh-") {
		t.Fatalf("got %q", res.Output)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s survived the call: %v", tmp, err)
	}
}

func TestBashEnvironmentIsScrubbedAndGitHardened(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test")
	t.Setenv("AGENTDESK_TEST_SECRET", "kept")
	t.Setenv("AGENTDESK_TEST_PLAIN", "plain")
	env := Env{Workspace: t.TempDir(), Shell: ShellOptions{PassEnv: []string{"AGENTDESK_TEST_SECRET"}, HardenGit: true}}
	res := mustRun(t, mode.ToolBash, env, bashInputOf(t, "env", 0))
	if strings.Contains(res.Output, "ANTHROPIC_API_KEY") || strings.Contains(res.Output, "sk-ant-test") {
		t.Errorf("the provider key reached the command")
	}
	for _, want := range []string{"AGENTDESK_TEST_SECRET=kept", "AGENTDESK_TEST_PLAIN=plain", "GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat"} {
		if !strings.Contains(res.Output, want+"\n") {
			t.Errorf("%s is missing from the command's environment", want)
		}
	}
	plain := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, bashInputOf(t, "env", 0))
	if strings.Contains(plain.Output, "GIT_CONFIG_COUNT=") {
		t.Errorf("git is hardened without HardenGit")
	}
}
