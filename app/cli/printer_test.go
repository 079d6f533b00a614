package cli

import (
	"bytes"
	"strings"
	"testing"

	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/i18n"
)

// An external agent reports a call before it asks about it: the run shows one line per call,
// with the gate's verdict where the agent asked, and as the agent's own only where it never did.
func TestRunPrinterShowsAnExternalCallOnceWithItsVerdict(t *testing.T) {
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p := newRunPrinter(&Context{Env: Env{Stdout: &out, Stderr: &bytes.Buffer{}}, msgs: msgs, lang: "en"}, false)
	for _, d := range []any{
		agent.ToolCallView{CallID: "asked", Name: "write", Summary: "write", Verdict: external.Verdict},
		agent.ToolCallView{CallID: "asked", Name: "write", Summary: "hello.txt", Verdict: "allow"},
		agent.ToolDoneView{CallID: "asked", Name: "write", Output: "Wrote file successfully."},
		agent.ToolCallView{CallID: "own", Name: "read", Summary: "notes.md", Verdict: external.Verdict},
		agent.ToolDoneView{CallID: "own", Name: "read", Output: "notes"},
	} {
		p.print(bus.Event{Name: "tool", Data: d})
	}
	got := out.String()
	if n := strings.Count(got, "→"); n != 2 {
		t.Fatalf("%d call lines, want one per call:\n%s", n, got)
	}
	if !strings.Contains(got, "→ write hello.txt [allowed]") || !strings.Contains(got, "→ read notes.md [the agent's own]") {
		t.Fatalf("lines:\n%s", got)
	}
	if strings.Index(got, "notes.md") > strings.Index(got, "✓ notes") {
		t.Fatalf("a call's line comes before its result:\n%s", got)
	}
}

// An external agent that neither asks nor sends a diff: the line shows the command its later
// report named, then what the snapshots around the call say it changed; a diff the agent sent
// is printed under its line.
func TestRunPrinterShowsAnExternalCallsCommandAndChanges(t *testing.T) {
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p := newRunPrinter(&Context{Env: Env{Stdout: &out, Stderr: &bytes.Buffer{}}, msgs: msgs, lang: "en"}, false)
	for _, d := range []any{
		agent.ToolCallView{CallID: "s", Name: "bash", Summary: "bash", Verdict: external.Verdict},
		agent.ToolCallView{CallID: "s", Name: "bash", Summary: "echo hi > out.txt", Verdict: external.Verdict},
		agent.ToolDoneView{CallID: "s", Name: "bash", Output: ""},
		agent.CheckpointView{CallID: "s", Reason: checkpoint.ReasonAfterTool, Changed: []agent.FileChange{{Path: "out.txt", Action: "create"}, {Path: "a.go", Action: "modify"}}},
		agent.CheckpointView{CallID: "s", Reason: checkpoint.ReasonBeforeTool},
		agent.ToolCallView{CallID: "e", Name: "Write x.txt", Summary: "--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+hi", Verdict: external.Verdict},
		agent.ToolDoneView{CallID: "e", Name: "Write x.txt", Output: "ok"},
	} {
		p.print(bus.Event{Name: "tool", Data: d})
	}
	got := out.String()
	for _, want := range []string{"→ bash echo hi > out.txt [the agent's own]", "  A out.txt\n", "  M a.go\n", "→ Write x.txt [the agent's own]", "    +hi\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Count(got, "→") != 2 {
		t.Errorf("one line per call:\n%s", got)
	}
}
