package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// BenchmarkToolCallOverhead measures what the runtime adds to every tool call, end to end —
// logging the model's answer that made it, describe, path resolution, the gate (with the
// session, rules and grants as of this call: the turn's GateCache reads their change counter),
// persisting the result and broadcasting the card and the result — excluding the model's and
// the tool's own work (execute: for a read, the run and bookkeeping that does no I/O). One op
// is one read call, in steps of one call (the worst case: the answer and the result in one
// commit per call) and of eight (one commit per step, persist.go).
func BenchmarkToolCallOverhead(b *testing.B) {
	for _, perStep := range []int{1, 8} {
		b.Run(fmt.Sprintf("%d-per-step", perStep), func(b *testing.B) { benchToolCalls(b, perStep) })
	}
}

func benchToolCalls(b *testing.B, perStep int) {
	h := newHarness(b, script(), harnessOpts{override: "execute", permission: "auto"})
	os.WriteFile(filepath.Join(h.workspace, "main.go"), []byte("package main\n"), 0o644)
	tr := &turn{rt: h.rt, ctx: context.Background(), active: &active{turnID: "bench"}, sessionID: h.session,
		workspace: h.workspace, pref: mode.Default, exec: mode.ModeExecute, deltas: newCoalescer(h.rt.opts.Publish)}
	input := json.RawMessage(`{"path":"main.go"}`)
	answer := provider.Response{Text: "Reading."}
	for i := range perStep {
		answer.ToolCalls = append(answer.ToolCalls, provider.ToolCall{ID: fmt.Sprint("c", i), Name: "read", Input: input})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call := answer.ToolCalls[i%perStep]
		if i%perStep == 0 {
			if err := tr.recordAnswer(answer); err != nil { // the step's answer (askModel)
				b.Fatal(err)
			}
		}
		g := &gated{call: call}
		if res, err := tr.decide(g); err != nil || res != nil {
			b.Fatalf("decide: %v %v", res, err)
		}
		if err := tr.finishCall(g, tool.Result{Output: "1\tpackage main"}); err != nil {
			b.Fatal(err)
		}
		if (i+1)%perStep == 0 || i == b.N-1 {
			if err := tr.commit(); err != nil { // the step's calls end (runCalls)
				b.Fatal(err)
			}
		}
	}
}
