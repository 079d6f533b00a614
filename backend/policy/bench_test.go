package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeBenchFile(b *testing.B, ws, rel string) {
	p := filepath.Join(ws, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
		b.Fatal(err)
	}
}

// benchInputs are typical gate decisions; path facts come resolved, as in production.
var benchInputs = map[string]Input{
	"edit inside in auto": {Mode: "execute", Permission: Auto, Call: insideCall(KindEdit),
		Rules: []Rule{{ID: "env", Effect: Deny, Path: "*.env"}, {ID: "docs", Effect: Allow, Path: "docs/**"}}},
	"read inside in ask": {Mode: "analyze", Permission: Ask, Call: insideCall(KindRead)},
	"hard deny in chat":  {Mode: "chat", Permission: Full, Call: insideCall(KindWrite)},
	"bash pre-parsed in auto": {Mode: "execute", Permission: Auto, Sandboxed: true, Call: func() Resolved {
		r := Resolved{Call: Call{Kind: KindBash, Command: "git status && ls -la"}}
		sh := AnalyzeShell(r.Call.Command, newMemView())
		r.Shell = &sh
		return r
	}()},
}

func BenchmarkEvaluate(b *testing.B) {
	for name, in := range benchInputs {
		in.SensitiveMasked = true
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_ = Evaluate(in)
			}
		})
	}
}

// BenchmarkAnalyzeShell is the cost of parsing a command, paid once per bash call in Resolve
// (or in Evaluate when the caller did not resolve first).
func BenchmarkAnalyzeShell(b *testing.B) {
	for b.Loop() {
		_ = AnalyzeShell("git status && ls -la | grep go", nil)
	}
}

// BenchmarkGateWithShell is a whole gate decision for a bash call, as the runtime pays it: the
// shell analysis with brace and glob expansion against a real workspace, every word resolved
// through the file system, then Evaluate with deny rules. Budget: 250 µs.
func BenchmarkGateWithShell(b *testing.B) {
	benchGate(b, map[string]string{
		"read-only with braces and globs": "cat {README.md,go.mod} src/*.go | grep -n func",
		"git with options":                "git -C . --no-pager log --oneline -n 5",
		"no paths":                        "true",
	})
}

// BenchmarkGateLongBraces is a whole gate decision for a 16 KB command made of brace lists,
// which the model may write and which expand to more than the gate can judge. Budget: 5 ms.
func BenchmarkGateLongBraces(b *testing.B) {
	const size = 16 << 10
	benchGate(b, map[string]string{
		"nested":        "echo " + strings.Repeat("{", size/2) + strings.Repeat("}", size/2),
		"nested lists":  "echo " + strings.Repeat("{a,", size/4) + strings.Repeat("}", size/4),
		"one long word": "echo " + strings.Repeat("{a,b}", size/5),
		"many words":    strings.Repeat("echo {a,b}{c,d}{e,f}{g,h} ; ", size/28),
	})
}

// benchGate measures Resolve and Evaluate of each command against a small real workspace, with
// the deny rules a person typically saves.
func benchGate(b *testing.B, cmds map[string]string) {
	ws := b.TempDir()
	for _, f := range []string{"README.md", "go.mod", "src/a.go", "src/b.go", "src/c.go"} {
		writeBenchFile(b, ws, f)
	}
	rules := []Rule{{ID: "rm", Effect: Deny, Command: "rm"}, {ID: "push", Effect: Deny, Command: "git push"},
		{ID: "secrets", Effect: Deny, Path: "secrets/**"}}
	for name, cmd := range cmds {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				r, _ := Resolve(Workspace{Root: ws}, Call{Kind: KindBash, Command: cmd})
				_ = Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Sandboxed: true, Rules: rules, Call: r})
			}
		})
	}
}
