package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// BenchmarkToolCallOverhead measures what the runtime adds to every tool call — describe,
// path resolution, the gate (with the session, rules and grants read afresh), persisting the
// result and broadcasting the card and the result — excluding the tool's own work.
func BenchmarkToolCallOverhead(b *testing.B) {
	h := newHarness(b, script(), harnessOpts{override: "execute", permission: "auto"})
	os.WriteFile(filepath.Join(h.workspace, "main.go"), []byte("package main\n"), 0o644)
	tr := &turn{rt: h.rt, ctx: context.Background(), active: &active{turnID: "bench"}, sessionID: h.session,
		workspace: h.workspace, pref: mode.Default, exec: mode.ModeExecute, deltas: newCoalescer(h.rt.opts.Publish)}
	call := provider.ToolCall{ID: "c", Name: "read", Input: json.RawMessage(`{"path":"main.go"}`)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := &gated{call: call}
		if res, err := tr.decide(g); err != nil || res != nil {
			b.Fatalf("decide: %v %v", res, err)
		}
		if err := tr.finishCall(g, tool.Result{Output: "1\tpackage main"}); err != nil {
			b.Fatal(err)
		}
	}
}
