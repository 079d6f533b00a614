package cli

import (
	"bytes"
	"strings"
	"testing"

	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
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
