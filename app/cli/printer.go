package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
	"agentdesk/backend/checkpoint"
)

// runPrinter shows a run as readable text, or as NDJSON events with --json.
type runPrinter struct {
	c      *Context
	asJSON bool
	mu     sync.Mutex
	// held are an external agent's calls not yet judged: the agent reports a call before it
	// asks about it, so its line waits for the verdict, or for its end if it never asks.
	held map[string]agent.ToolCallView
}

func newRunPrinter(c *Context, asJSON bool) *runPrinter {
	return &runPrinter{c: c, asJSON: asJSON, held: map[string]agent.ToolCallView{}}
}

func (p *runPrinter) print(e bus.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asJSON {
		line, err := json.Marshal(e)
		if err == nil {
			fmt.Fprintln(p.c.Stdout, string(line))
		}
		return
	}
	p.text(e)
}

func (p *runPrinter) text(e bus.Event) {
	w, c := p.c.Stdout, p.c
	switch d := e.Data.(type) {
	case agent.TurnStarted:
		fmt.Fprintf(c.Stderr, "[%s] %s\n", c.T("mode.label."+string(d.ExecutionMode)), c.T(d.ReasonKey, mapOf(d.ReasonArgs)...))
	case agent.Delta:
		if e.Name == agent.EventTurnDelta {
			fmt.Fprint(w, d.Text)
		}
	case external.AgentStatus:
		if d.State == external.StatusStarting {
			fmt.Fprintln(c.Stderr, c.T("cli.run.starting", "Name", d.Name))
		}
	case agent.ToolCallView:
		if d.Verdict == external.Verdict {
			p.held[d.CallID] = d
			return
		}
		delete(p.held, d.CallID)
		p.callLine(d)
	case agent.ToolDoneView:
		if held, ok := p.held[d.CallID]; ok {
			delete(p.held, d.CallID)
			p.callLine(held)
		}
		mark := "✓"
		if d.IsError {
			mark = "✗"
		}
		fmt.Fprintf(w, "  %s %s\n", mark, firstLine(d.Output))
	case agent.CheckpointView:
		// What a call changed, read from the snapshots around it: an external agent that
		// neither asks nor sends a diff says nothing else about its edits.
		if d.CallID == "" || d.Reason != checkpoint.ReasonAfterTool {
			return
		}
		for _, f := range d.Changed {
			fmt.Fprintf(w, "  %s %s\n", changeMark(f.Action), f.Path)
		}
	case agent.ProgressView:
		fmt.Fprintf(w, "  … %s\n", progressLine(d))
	case agent.TurnEnded:
		fmt.Fprintln(w)
		if d.Error != "" {
			fmt.Fprintln(c.Stderr, d.Error)
		}
		fmt.Fprintln(c.Stderr, c.T("cli.run.ended", "Status", c.T("cli.run.status."+d.Status)))
	}
}

func (p *runPrinter) callLine(d agent.ToolCallView) {
	summary, diff := d.Summary, ""
	if strings.HasPrefix(summary, "--- ") {
		summary, diff = "", summary // an external agent's edit: the diff it sent, under the line
	}
	line := d.Name
	if summary != "" {
		line += " " + firstLine(summary)
	}
	fmt.Fprintf(p.c.Stdout, "\n→ %s [%s]\n", line, p.c.T("cli.run.verdict."+d.Verdict))
	if diff != "" {
		for _, l := range strings.Split(diff, "\n") {
			fmt.Fprintf(p.c.Stdout, "    %s\n", l)
		}
	}
}

// changeMark is a changed file's mark, as git's short status writes it.
func changeMark(action string) string {
	switch action {
	case "added", "created", "add", "create":
		return "A"
	case "deleted", "removed", "delete":
		return "D"
	}
	return "M"
}

func mapOf(m map[string]any) []any {
	var out []any
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i] + " …"
		}
	}
	return s
}

// progressLine is a call's progress as one line: "3/10 message", or "3 message" when the
// server does not know the total.
func progressLine(d agent.ProgressView) string {
	line := strconv.FormatFloat(d.Progress, 'f', -1, 64)
	if d.Total > 0 {
		line += "/" + strconv.FormatFloat(d.Total, 'f', -1, 64)
	}
	if d.Message != "" {
		line += " " + d.Message
	}
	return line
}
