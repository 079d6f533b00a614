package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/sandbox/sandboxtest"
)

func bashInputOf(t *testing.T, command string, timeout int) string {
	in := map[string]any{"command": command}
	if timeout > 0 {
		in["timeout_s"] = timeout
	}
	return jsonInput(t, in)
}

func TestBashRunsInTheWorkspaceWithMergedOutput(t *testing.T) {
	ws := t.TempDir()
	res := mustRun(t, mode.ToolBash, Env{Workspace: ws}, bashInputOf(t, "pwd; echo out; echo err >&2", 0))
	real, _ := filepath.EvalSymlinks(ws)
	want := real + "\nout\nerr\n[exit code: 0]"
	if res.Output != want || res.IsError || res.Truncated {
		t.Fatalf("got %+v, want %q", res, want)
	}
}

func TestBashNonZeroExitIsAnError(t *testing.T) {
	res := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, bashInputOf(t, "echo failing; exit 3", 0))
	if !res.IsError || res.Output != "failing\n[exit code: 3]" {
		t.Fatalf("got %+v", res)
	}
	res = mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, bashInputOf(t, "true", 0))
	if res.IsError || res.Output != "(no output)\n[exit code: 0]" {
		t.Fatalf("got %+v", res)
	}
}

func TestBashStreamsOutput(t *testing.T) {
	var mu sync.Mutex
	var chunks []string
	env := Env{Workspace: t.TempDir(), Output: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		chunks = append(chunks, s)
	}}
	res := mustRun(t, mode.ToolBash, env, bashInputOf(t, "echo one; sleep 0.05; printf 'deux é\\n'", 0))
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(chunks, ""); got != "one\ndeux é\n" {
		t.Fatalf("streamed %q", got)
	}
	if !strings.HasPrefix(res.Output, "one\ndeux é\n") {
		t.Fatalf("result %q", res.Output)
	}
}

func TestBashOutputCapKeepsHeadAndTail(t *testing.T) {
	res := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, bashInputOf(t, "seq 1 100000", 0))
	if !res.Truncated || res.IsError {
		t.Fatalf("truncated %v, error %v", res.Truncated, res.IsError)
	}
	if !strings.HasPrefix(res.Output, "1\n2\n3\n") || !strings.HasSuffix(res.Output, "99999\n100000\n[exit code: 0]") {
		t.Fatalf("head or tail lost: %q … %q", res.Output[:20], res.Output[len(res.Output)-40:])
	}
	if !strings.Contains(res.Output, " bytes omitted ...]") || len(res.Output) > bashOutputCap+200 {
		t.Fatalf("%d bytes, marker missing or cap exceeded", len(res.Output))
	}
}

func TestBashTimeoutKillsTheProcessTree(t *testing.T) {
	ws := t.TempDir()
	cmd := late + " " + late + " sleep 30; wait"
	start := time.Now()
	res := mustRun(t, mode.ToolBash, Env{Workspace: ws}, bashInputOf(t, cmd, 1))
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("timeout took %s", took)
	}
	if !res.IsError || !strings.Contains(res.Output, "[timed out after 1s") {
		t.Fatalf("got %+v", res)
	}
	assertNoLateWrite(t, ws)
}

// TestBashCancelIsPromptAndKillsChildren allows three attempts at the 1 s bound: on a loaded
// machine the scheduler alone can stall a run, while a real hang (waiting for the child's
// "sleep 30") fails every attempt.
func TestBashCancelIsPromptAndKillsChildren(t *testing.T) {
	var took time.Duration
	for range 3 {
		if took = cancelOnce(t); took < time.Second {
			return
		}
	}
	t.Fatalf("cancel took %s", took)
}

// cancelOnce starts a command with a background child, cancels once it runs, and returns how
// long Run took to return after the cancel.
func cancelOnce(t *testing.T) time.Duration {
	t.Helper()
	ws := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	var once sync.Once
	env := Env{Workspace: ws, Output: func(string) { once.Do(func() { close(started) }) }}
	done := make(chan error, 1)
	go func() {
		_, err := get(t, mode.ToolBash).Run(ctx, env, []byte(bashInputOf(t, late+" echo ready; wait", 0)))
		done <- err
	}()
	<-started
	cancelled := time.Now()
	cancel()
	select {
	case err := <-done:
		took := time.Since(cancelled)
		wantKind(t, err, ToolCancelled)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v does not wrap context.Canceled", err)
		}
		assertNoLateWrite(t, ws)
		return took
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not stop the command")
	}
	return 0
}

func TestBashLeavesNoBackgroundProcessBehind(t *testing.T) {
	ws := t.TempDir()
	start := time.Now()
	res := mustRun(t, mode.ToolBash, Env{Workspace: ws}, bashInputOf(t, late+" echo started", 0))
	if res.IsError || time.Since(start) > 3*time.Second {
		t.Fatalf("got %+v after %s", res, time.Since(start))
	}
	assertNoLateWrite(t, ws)
}

func TestBashNeedsAWorkspace(t *testing.T) {
	_, err := run(t, mode.ToolBash, Env{}, bashInputOf(t, "true", 0))
	wantKind(t, err, ToolFailed)
}

// late starts a background process that writes the file "late" in the workspace two seconds
// later (after a call's one-second timeout), unless it was ended with the call. Its process ids would say nothing: inside a PID
// namespace they are not the host's.
const late = "(sleep 2; echo late >> late) &"

// assertNoLateWrite waits past the moment a process started with late would write, and fails
// if one did.
func assertNoLateWrite(t *testing.T, ws string) {
	t.Helper()
	time.Sleep(2500 * time.Millisecond)
	if raw, err := os.ReadFile(filepath.Join(ws, "late")); err == nil {
		t.Fatalf("a process the command started outlived the call and wrote %q", raw)
	}
}

func TestBashEscalationReachesTheGate(t *testing.T) {
	for _, esc := range []policy.Escalation{policy.NoEscalation, policy.EscalateNetwork, policy.EscalateUnsandboxed} {
		in := map[string]any{"command": "curl example.com # fetch the docs"}
		if esc != "" {
			in["escalate"] = string(esc)
		}
		call, err := get(t, mode.ToolBash).Describe(json.RawMessage(jsonInput(t, in)))
		if err != nil || call.Gate.Escalation != esc || call.Gate.Kind != policy.KindBash {
			t.Fatalf("%q: %+v %v", esc, call, err)
		}
	}
	_, err := get(t, mode.ToolBash).Describe(json.RawMessage(`{"command":"true","escalate":"root"}`))
	if e := wantKind(t, err, InvalidToolInput); !strings.Contains(fmt.Sprint(e.Args["Problem"]), "escalate") {
		t.Fatalf("problem %v does not name the field", e.Args["Problem"])
	}
}

func TestBashSchemaListsTheEscalations(t *testing.T) {
	var s struct {
		Properties map[string]struct {
			Type string   `json:"type"`
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(get(t, mode.ToolBash).Schema(), &s); err != nil {
		t.Fatal(err)
	}
	if p := s.Properties["escalate"]; p.Type != "string" || !slices.Equal(p.Enum, []string{"network", "unsandboxed", "git"}) {
		t.Fatalf("escalate property %+v", p)
	}
}

// TestBashIgnoresEscalateWhenRunning: only what the person approved (env.Shell) loosens the
// sandbox; the model asking is not enough.
func TestBashIgnoresEscalateWhenRunning(t *testing.T) {
	outside := t.TempDir()
	in := jsonInput(t, map[string]any{"command": "echo x > " + filepath.Join(outside, "f"), "escalate": "unsandboxed"})
	res := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir()}, in)
	if sandbox.Status().Kind == sandbox.KindLandlock && !res.IsError {
		t.Fatalf("escalate alone let the command out: %q", res.Output)
	}
}

// BenchmarkShellStart measures what the sandbox adds to starting a command: the same bash call
// through the same code path, unsandboxed, sandboxed by re-executing this (pure-Go) test binary,
// and by the static helper the desktop build embeds, sandboxed and not, side by side. The
// embedded cases run last: once the image is in use it serves every later command of the
// process. What the sandbox itself adds is embedded-helper over embedded-helper-unsandboxed;
// over bare, the supervising helper's own start is included too.
func BenchmarkShellStart(b *testing.B) {
	// bare is the floor: a shell started directly, with no helper above it. Every command the
	// tool runs, unsandboxed ones too, starts under the supervising helper.
	b.Run("bare", func(b *testing.B) {
		name, args := shell("true")
		for b.Loop() {
			if err := exec.Command(name, args...).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	input := json.RawMessage(`{"command":"true"}`)
	for _, c := range []struct {
		name  string
		opts  ShellOptions
		image bool
	}{{"unsandboxed", ShellOptions{Unsandboxed: true}, false}, {"sandboxed", ShellOptions{}, false},
		{"embedded-helper", ShellOptions{}, true}, {"embedded-helper-unsandboxed", ShellOptions{Unsandboxed: true}, true}} {
		b.Run(c.name, func(b *testing.B) {
			if c.image {
				sandbox.UseHelperImage(sandboxtest.BuildHelper(b))
			}
			env := Env{Workspace: b.TempDir(), Shell: c.opts}
			b.ResetTimer()
			for b.Loop() {
				res, err := get(b, mode.ToolBash).Run(context.Background(), env, input)
				if err != nil || res.IsError {
					b.Fatalf("%v %q", err, res.Output)
				}
			}
		})
	}
}
