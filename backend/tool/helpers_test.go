package tool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

var registry = NewRegistry()

func get(t testing.TB, name mode.Tool) Tool {
	t.Helper()
	tl, ok := registry.Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tl
}

// run executes a tool the way the agent does: Describe first (it must accept the input), then Run.
func run(t testing.TB, name mode.Tool, env Env, input string) (Result, error) {
	t.Helper()
	tl := get(t, name)
	if _, err := tl.Describe(json.RawMessage(input)); err != nil {
		return Result{}, err
	}
	return tl.Run(context.Background(), env, json.RawMessage(input))
}

func mustRun(t testing.TB, name mode.Tool, env Env, input string) Result {
	t.Helper()
	res, err := run(t, name, env, input)
	if err != nil {
		t.Fatalf("%s %s: %v", name, input, err)
	}
	return res
}

func wantKind(t testing.TB, err error, kind errs.Kind) *errs.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s, got no error", kind)
	}
	if got := errs.KindOf(err); got != kind {
		t.Fatalf("want %s, got %s (%v)", kind, got, err)
	}
	return errs.As(err)
}

// workspace makes a temp folder holding files (path -> content).
func workspace(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), content)
	}
	return dir
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readBack(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// jsonInput marshals v, for inputs with text that would be awkward to escape by hand.
func jsonInput(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// approve resolves p the way the agent's gate does, for Env.Target.
func approve(t testing.TB, ws, p string) *policy.Target {
	t.Helper()
	r, err := policy.Resolve(policy.Workspace{Root: ws}, policy.Call{Kind: policy.KindWrite, Path: p})
	if err != nil {
		t.Fatal(err)
	}
	return &r.Target
}

// swapForSymlink replaces the file or folder at p with a symlink to target, as an attacker
// would between the approval and the tool's run.
func swapForSymlink(t testing.TB, p, target string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skip("no symlinks:", err)
	}
}

// outsideFile makes a file in a folder of its own, outside any workspace, and returns its path.
func outsideFile(t testing.TB, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, p, content)
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// wantChanged asserts a TARGET_CHANGED refusal naming the approved and the current path.
func wantChanged(t testing.TB, err error, approved, now string) {
	t.Helper()
	e := wantKind(t, err, TargetChanged)
	if e.Args["Approved"] != approved || e.Args["Now"] != now {
		t.Fatalf("args %v, want Approved %q, Now %q", e.Args, approved, now)
	}
}
