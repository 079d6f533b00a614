package cli

import (
	"fmt"
	"strings"

	"agentdesk/backend/decision"
)

// sampleOnTerminal shows an MCP server's sampling request in full (which model, the system
// prompt, every message) and reads the choice: o allows once, s for this server for the rest
// of the session; anything else denies, and an empty line gives no reason.
func (c *Context) sampleOnTerminal(s decision.SamplingPayload, p *prompt) (decision.Resolution, bool) {
	fmt.Fprintf(c.Stderr, "\n%s\n", c.T("cli.run.sample", "Server", s.Server, "Tool", s.Tool, "Model", s.Model, "Max", s.MaxTokens))
	if s.SystemPrompt != "" {
		fmt.Fprintf(c.Stderr, "  [system] %s\n", s.SystemPrompt)
	}
	for _, m := range s.Messages {
		fmt.Fprintf(c.Stderr, "  [%s] %s\n", m.Role, m.Text)
	}
	choice, ok := c.ask(p, "cli.run.sampleChoices")
	if !ok {
		return decision.Resolution{}, false
	}
	switch strings.ToLower(strings.TrimSpace(choice)) {
	case "o", "once":
		return decision.Sampling(decision.SampleOnce, ""), true
	case "s", "server":
		return decision.Sampling(decision.SampleServer, ""), true
	}
	reason, ok := c.ask(p, "cli.run.rejectReason")
	if !ok {
		return decision.Resolution{}, false
	}
	return decision.Sampling(decision.SampleDeny, strings.TrimSpace(reason)), true
}
