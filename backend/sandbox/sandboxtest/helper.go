// Package sandboxtest builds the static sandbox helper for tests and benchmarks, as the desktop
// build embeds it, so they measure and check the program the app really runs.
package sandboxtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BuildHelper compiles backend/sandbox/helper without cgo, like the Makefile, and returns it.
func BuildHelper(tb testing.TB) []byte {
	tb.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("cannot locate the sandbox package")
	}
	out := filepath.Join(tb.TempDir(), "agentdesk-sandbox")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "./helper")
	cmd.Dir = filepath.Join(filepath.Dir(here), "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building the sandbox helper: %v\n%s", err, msg)
	}
	program, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	return program
}
