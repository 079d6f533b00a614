package server

import (
	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/eventlog"
)

// replayer turns a session's log into the updates session/load sends before it answers: the
// person's messages, the agent's words, and its tool calls with their results, titled as they
// were live. An entry that cannot be read is said so, as agent text, never skipped.
type replayer struct {
	eventlog.Ignore
	s   *Server
	w   where
	out []acp.SessionUpdate
}

func (s *Server) replay(log []eventlog.Record, w where) []acp.SessionUpdate {
	r := &replayer{s: s, w: w}
	eventlog.Walk(log, r)
	return r.out
}

func (r *replayer) UserMessage(m eventlog.UserMessage) {
	// A nudge is AgentDesk talking to the model; an editor would show it as the person's.
	if m.Text != "" && !agent.IsNudge(m) {
		r.out = append(r.out, acp.UpdateUserMessageText(m.Text))
	}
}

func (r *replayer) AssistantMessage(m eventlog.AssistantMessage) {
	if m.Text != "" {
		r.out = append(r.out, acp.UpdateAgentMessageText(m.Text))
	}
	for _, c := range m.ToolCalls {
		d := r.s.describe(c.Name, c.Input, r.w)
		r.out = append(r.out, acp.StartToolCall(acp.ToolCallId(c.ID), d.title, acp.WithStartKind(toolKind(c.Name)),
			acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartRawInput(rawInput(c.Input)),
			acp.WithStartContent(d.content()), acp.WithStartLocations(d.locations)))
	}
}

func (r *replayer) ToolResult(m eventlog.ToolResult) {
	r.out = append(r.out, toolDone(m.CallID, m.Content, m.IsError))
}

func (r *replayer) DirectTool(d eventlog.DirectTool) {
	v := r.s.describe(d.Name, d.Input, r.w)
	r.out = append(r.out, acp.StartToolCall(acp.ToolCallId(d.CallID), v.title, acp.WithStartKind(toolKind(d.Name)),
		acp.WithStartStatus(acp.ToolCallStatusInProgress), acp.WithStartRawInput(rawInput(d.Input)),
		acp.WithStartLocations(v.locations)))
	r.out = append(r.out, toolDone(d.CallID, d.Output, d.IsError))
}

func (r *replayer) Unreadable(u eventlog.Unreadable) {
	r.out = append(r.out, acp.UpdateAgentMessageText(r.s.t("log.unreadable", map[string]any{"Seq": u.Seq, "Type": u.Type})))
}
