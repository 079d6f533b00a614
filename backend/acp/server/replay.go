package server

import (
	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/eventlog"
)

// replayer turns a session's log into the updates session/load sends before it answers: the
// person's messages, the agent's words, and its tool calls with their results. An entry that
// cannot be read is said so, as agent text, never skipped.
type replayer struct {
	eventlog.Ignore
	out []acp.SessionUpdate
	t   func(key string, args map[string]any) string
}

func replay(log []eventlog.Record, t func(key string, args map[string]any) string) []acp.SessionUpdate {
	r := &replayer{t: t}
	eventlog.Walk(log, r)
	return r.out
}

func (r *replayer) UserMessage(m eventlog.UserMessage) {
	if m.Text != "" {
		r.out = append(r.out, acp.UpdateUserMessageText(m.Text))
	}
}

func (r *replayer) AssistantMessage(m eventlog.AssistantMessage) {
	if m.Text != "" {
		r.out = append(r.out, acp.UpdateAgentMessageText(m.Text))
	}
	for _, c := range m.ToolCalls {
		r.out = append(r.out, acp.StartToolCall(acp.ToolCallId(c.ID), c.Name, acp.WithStartKind(toolKind(c.Name)),
			acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartRawInput(rawInput(c.Input))))
	}
}

func (r *replayer) ToolResult(m eventlog.ToolResult) {
	r.out = append(r.out, toolDone(m.CallID, m.Content, m.IsError))
}

func (r *replayer) DirectTool(d eventlog.DirectTool) {
	r.out = append(r.out, acp.StartToolCall(acp.ToolCallId(d.CallID), d.Name, acp.WithStartKind(toolKind(d.Name)),
		acp.WithStartStatus(acp.ToolCallStatusInProgress), acp.WithStartRawInput(rawInput(d.Input))))
	r.out = append(r.out, toolDone(d.CallID, d.Output, d.IsError))
}

func (r *replayer) Unreadable(u eventlog.Unreadable) {
	r.out = append(r.out, acp.UpdateAgentMessageText(r.t("log.unreadable", map[string]any{"Seq": u.Seq, "Type": u.Type})))
}
