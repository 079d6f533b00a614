package external

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/shell"

	"agentdesk/backend/provider/llm"
)

// AgentName is what to call an agent: the program of its command line, past launchers such as
// npx or node and variable assignments ("npx -y opencode-ai acp" is "opencode-ai").
func AgentName(command string) string {
	args, err := shell.Fields(command, func(string) string { return "" })
	if err != nil || len(args) == 0 {
		return strings.TrimSpace(command)
	}
	launchers := map[string]bool{"env": true, "npx": true, "bunx": true, "node": true, "bun": true, "deno": true,
		"uvx": true, "python": true, "python3": true, "pnpm": true, "dlx": true, "exec": true, "run": true}
	for _, a := range args {
		base := filepath.Base(a)
		if strings.HasPrefix(a, "-") || strings.Contains(a, "=") || launchers[base] {
			continue
		}
		return strings.TrimSuffix(base, filepath.Ext(base))
	}
	return filepath.Base(args[0])
}

// recapLen bounds the recap an agent starting afresh is given; the end is kept.
const recapLen = 24000

// Recap renders the conversation so far as a transcript for an agent that starts afresh on a
// session with a history, to read before the person's prompt; "" when there is nothing to tell.
func Recap(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Text != "" {
			who := "User"
			if m.Role == llm.RoleAssistant {
				who = "Assistant"
			}
			b.WriteString(who + ": " + m.Text + "\n\n")
		}
		for _, c := range m.ToolCalls {
			b.WriteString("Tool call " + c.Name + ": " + string(c.Input) + "\n")
		}
		for _, res := range m.ToolResults {
			status := "result"
			if res.IsError {
				status = "error"
			}
			b.WriteString("Tool " + status + " (" + res.Name + "): " + clipMiddle(res.Content, 400) + "\n\n")
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return ""
	}
	if len(text) > recapLen {
		start := len(text) - recapLen
		for start < len(text) && !utf8.RuneStart(text[start]) {
			start++
		}
		text = "…" + text[start:]
	}
	return "[AgentDesk] This conversation began earlier and your own session of it could not be restored. " +
		"Here is what happened so far, from AgentDesk's log:\n\n" + text + "\n\n[End of the earlier conversation. The person's new message follows.]"
}

func clipMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n/2]) + " … " + string(r[len(r)-n/2:])
}
