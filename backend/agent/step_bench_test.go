package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/build/scaledata"
)

// BenchmarkScaleModelStep measures AgentDesk's own work for one model step of a turn in a long
// session (100,000 events with AGENTDESK_SCALE_DATA set, the Smoke size without): recording the
// model's answer and its call's result, then building the next request. The turn's history was
// read from the log once, when it started, as a running turn does; the model itself is not
// part of the figure.
func BenchmarkScaleModelStep(b *testing.B) {
	_, m, err := scaledata.Folder()
	if err != nil {
		b.Fatal(err)
	}
	h := newHarness(b, script(), harnessOpts{override: "execute", permission: "auto"})
	if err := scaledata.Fill(h.st, h.session, m.Big); err != nil {
		b.Fatal(err)
	}
	tr := &turn{rt: h.rt, ctx: context.Background(), active: &active{turnID: "bench"}, sessionID: h.session,
		workspace: h.workspace, pref: mode.Default, exec: mode.ModeExecute, deltas: newCoalescer(h.rt.opts.Publish)}
	tr.prov, _ = h.rt.opts.Provider(h.session) // its window is measured against at every step
	first, err := tr.request()
	if err != nil || len(first.Messages) < m.Big/100 {
		b.Fatalf("the history of %d events read %d messages: %v", m.Big, len(first.Messages), err)
	}
	input := json.RawMessage(`{"path":"main.go"}`)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprint("step-", i)
		if err := tr.record(eventlog.AssistantMessage{TurnID: "bench", Text: "Reading it.",
			ToolCalls: []eventlog.CallRecord{{ID: id, Name: "read", Input: input}}}); err != nil {
			b.Fatal(err)
		}
		if err := tr.record(eventlog.ToolResult{TurnID: "bench", CallID: id, Name: "read", Content: "1\tpackage main"}); err != nil {
			b.Fatal(err)
		}
		if _, err := tr.request(); err != nil {
			b.Fatal(err)
		}
	}
}
