package external

import (
	"strings"
	"unicode/utf8"

	"agentdesk/backend/provider/llm"
)

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
