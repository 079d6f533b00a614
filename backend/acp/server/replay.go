package server

import (
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/store"
)

// replay turns a session's log into the updates session/load sends before it answers: the
// person's messages, the agent's words, and its tool calls with their results.
func (s *Server) replay(events []store.Event, w where) []acp.SessionUpdate {
	var out []acp.SessionUpdate
	for _, e := range events {
		switch e.Type {
		case agent.EventUserMessage:
			var m agent.UserMessage
			if json.Unmarshal([]byte(e.Payload), &m) == nil && m.Text != "" {
				out = append(out, acp.UpdateUserMessageText(m.Text))
			}
		case agent.EventAssistantMessage:
			var m agent.AssistantMessage
			if json.Unmarshal([]byte(e.Payload), &m) != nil {
				continue
			}
			if m.Text != "" {
				out = append(out, acp.UpdateAgentMessageText(m.Text))
			}
			for _, c := range m.ToolCalls {
				d := s.describe(c.Name, c.Input, w)
				out = append(out, acp.StartToolCall(acp.ToolCallId(c.ID), d.title, acp.WithStartKind(toolKind(c.Name)),
					acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartRawInput(rawInput(c.Input)),
					acp.WithStartContent(d.content()), acp.WithStartLocations(d.locations)))
			}
		case agent.EventToolResult:
			var r agent.ToolResultRecord
			if json.Unmarshal([]byte(e.Payload), &r) == nil {
				out = append(out, toolDone(r.CallID, r.Content, r.IsError))
			}
		case agent.EventDirectTool:
			var d agent.DirectResult
			if json.Unmarshal([]byte(e.Payload), &d) == nil {
				v := s.describe(d.Name, d.Input, w)
				out = append(out, acp.StartToolCall(acp.ToolCallId(d.CallID), v.title, acp.WithStartKind(toolKind(d.Name)),
					acp.WithStartStatus(acp.ToolCallStatusInProgress), acp.WithStartRawInput(rawInput(d.Input)),
					acp.WithStartLocations(v.locations)))
				out = append(out, toolDone(d.CallID, d.Output, d.IsError))
			}
		}
	}
	return out
}
