package agent

import (
	"encoding/json"

	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// Event types of the session log written by the runtime. The log is the conversation: the
// history sent to the model is rebuilt from it, so resume and fork need nothing else.
const (
	EventUserMessage      = "message.user"
	EventAssistantMessage = "message.assistant"
	EventToolResult       = "tool.result"
	EventContextCleared   = "context.cleared"
)

// UserMessage is the payload of message.user.
type UserMessage struct {
	TurnID string `json:"turn_id"`
	Text   string `json:"text"`
	Steer  bool   `json:"steer,omitempty"`
}

// AssistantMessage is the payload of message.assistant.
type AssistantMessage struct {
	TurnID    string       `json:"turn_id"`
	Text      string       `json:"text"`
	ToolCalls []CallRecord `json:"tool_calls,omitempty"`
}

// CallRecord is one tool call as the model made it.
type CallRecord struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ToolResultRecord is the payload of tool.result: what the model was told, and the gate's
// verdict that led there.
type ToolResultRecord struct {
	TurnID   string `json:"turn_id"`
	CallID   string `json:"call_id"`
	Name     string `json:"name"`
	Content  string `json:"content"`
	IsError  bool   `json:"is_error"`
	Verdict  string `json:"verdict"`
	Layer    string `json:"layer,omitempty"`
	Code     string `json:"code,omitempty"`
	Approved string `json:"approved,omitempty"` // how the person answered an approval, if asked
}

// interruptedResult answers a tool call whose result never arrived (the app stopped
// mid-call), so the rebuilt conversation stays well-formed for the model.
const interruptedResult = "INTERRUPTED: the app stopped before this call finished; it may or may not have run."

// buildHistory turns a session log into model messages, starting after the last /clear.
func buildHistory(events []store.Event) []provider.Message {
	var msgs []provider.Message
	open := map[string]string{} // call id -> tool name, for calls still waiting for a result
	for _, e := range events {
		switch e.Type {
		case EventContextCleared:
			msgs, open = nil, map[string]string{}
		case EventUserMessage:
			var m UserMessage
			if json.Unmarshal([]byte(e.Payload), &m) == nil {
				msgs = closeOpen(msgs, open)
				msgs = appendUserText(msgs, m.Text)
			}
		case EventAssistantMessage:
			var m AssistantMessage
			if json.Unmarshal([]byte(e.Payload), &m) == nil {
				msgs = closeOpen(msgs, open)
				msgs = append(msgs, assistantOf(m, open))
			}
		case EventToolResult:
			var r ToolResultRecord
			if json.Unmarshal([]byte(e.Payload), &r) == nil {
				if _, waiting := open[r.CallID]; waiting {
					delete(open, r.CallID)
					msgs = appendResult(msgs, provider.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content, IsError: r.IsError})
				}
			}
		}
	}
	return closeOpen(msgs, open)
}

func assistantOf(m AssistantMessage, open map[string]string) provider.Message {
	out := provider.Message{Role: provider.RoleAssistant, Text: m.Text}
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Name, Input: c.Input})
		open[c.ID] = c.Name
	}
	return out
}

// closeOpen answers every call still open as interrupted, in call order.
func closeOpen(msgs []provider.Message, open map[string]string) []provider.Message {
	if len(open) == 0 || len(msgs) == 0 {
		return msgs
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != provider.RoleAssistant {
			continue
		}
		for _, c := range msgs[i].ToolCalls {
			if name, waiting := open[c.ID]; waiting {
				msgs = appendResult(msgs, provider.ToolResult{CallID: c.ID, Name: name, Content: interruptedResult, IsError: true})
				delete(open, c.ID)
			}
		}
		break
	}
	return msgs
}

// appendResult adds a tool result to the trailing user message of results, or starts one.
func appendResult(msgs []provider.Message, r provider.ToolResult) []provider.Message {
	if n := len(msgs); n > 0 && msgs[n-1].Role == provider.RoleUser && len(msgs[n-1].ToolResults) > 0 && msgs[n-1].Text == "" {
		msgs[n-1].ToolResults = append(msgs[n-1].ToolResults, r)
		return msgs
	}
	return append(msgs, provider.Message{Role: provider.RoleUser, ToolResults: []provider.ToolResult{r}})
}

// appendUserText adds user text; steering text that arrives right after tool results joins
// that message so user and assistant turns keep alternating.
func appendUserText(msgs []provider.Message, text string) []provider.Message {
	if n := len(msgs); n > 0 && msgs[n-1].Role == provider.RoleUser {
		if msgs[n-1].Text != "" {
			msgs[n-1].Text += "\n\n"
		}
		msgs[n-1].Text += text
		return msgs
	}
	return append(msgs, provider.Message{Role: provider.RoleUser, Text: text})
}
