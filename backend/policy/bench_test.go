package policy

import "testing"

// benchInputs are typical gate decisions; path facts come resolved, as in production.
var benchInputs = map[string]Input{
	"edit inside in auto": {Mode: "execute", Permission: Auto, Call: insideCall(KindEdit),
		Rules: []Rule{{ID: "env", Effect: Deny, Path: "*.env"}, {ID: "docs", Effect: Allow, Path: "docs/**"}}},
	"read inside in ask": {Mode: "analyze", Permission: Ask, Call: insideCall(KindRead)},
	"hard deny in chat":  {Mode: "chat", Permission: Full, Call: insideCall(KindWrite)},
	"bash pre-parsed in auto": {Mode: "execute", Permission: Auto, Call: func() Resolved {
		r := Resolved{Call: Call{Kind: KindBash, Command: "git status && ls -la"}}
		sh := AnalyzeShell(r.Call.Command)
		r.Shell = &sh
		return r
	}()},
}

func BenchmarkEvaluate(b *testing.B) {
	for name, in := range benchInputs {
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
		_ = AnalyzeShell("git status && ls -la | grep go")
	}
}
