package agent

import (
	"fmt"
	"maps"
	"slices"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// The log is the conversation: the history sent to the model is rebuilt from it (through the
// one event-log reader), so resume and fork need nothing else.

// interruptedResult answers a tool call whose result never arrived (the app stopped
// mid-call), so the rebuilt conversation stays well-formed for the model.
const interruptedResult = "INTERRUPTED: the app stopped before this call finished; it may or may not have run."

// unreadableNote stands in for a log entry that cannot be read, so the model knows the
// conversation has a gap rather than being shown a history that silently lost a part.
const unreadableNote = "NOTE: entry %d of this conversation's log could not be read (%s) and is left out."

// history is the model conversation built from a log, starting after the last /clear.
type history struct {
	eventlog.Ignore
	msgs   []provider.Message
	origin []int64           // the log entry each message began at (history_compact.go)
	from   int64             // the first entry the last summary stands for, 0 when none
	open   map[string]string // call id -> tool name, for calls still waiting for a result
}

// buildHistory turns a session log into model messages.
func buildHistory(log []eventlog.Record) []provider.Message {
	h := &history{open: map[string]string{}}
	h.walk(log)
	return closeOpen(h.msgs, h.open)
}

// conversation is a running turn's model history, kept in memory: built from the whole log
// once, when the turn first asks the model, then brought up to date with only the entries
// recorded since (its own steps, steering, a /clear). A step costs the same in a 100-event and
// a 100k-event session, and reads the same history a rebuild from the log would.
type conversation struct {
	h     *history
	seen  int64 // the number of the last log entry read into h
	usage usage // what the model reported of the last request (history_compact.go)
}

// messages is the conversation as the model is sent it now.
func (c *conversation) messages(s *store.Store, sessionID string) ([]provider.Message, error) {
	if c.h == nil {
		c.h = &history{open: map[string]string{}}
	}
	for {
		page, err := s.LogAfter(sessionID, c.seen, logBatch)
		if err != nil {
			return nil, err
		}
		c.h.walk(page)
		if len(page) > 0 {
			c.seen = page[len(page)-1].Seq
		}
		if len(page) < logBatch {
			break
		}
	}
	if len(c.h.open) == 0 {
		return slices.Clip(c.h.msgs), nil // an append by the reader cannot reach the kept history
	}
	// Calls still open are answered as interrupted in what is sent, never in what is kept: their
	// results may yet be recorded.
	msgs := slices.Clone(c.h.msgs)
	if n := len(msgs); n > 0 {
		msgs[n-1].ToolResults = slices.Clone(msgs[n-1].ToolResults)
	}
	return closeOpen(msgs, maps.Clone(c.h.open)), nil
}

// logBatch is how many log entries a conversation reads at a time.
const logBatch = 5000

func (h *history) ContextCleared(eventlog.ContextCleared) {
	h.msgs, h.open, h.from = nil, map[string]string{}, 0
}

func (h *history) UserMessage(m eventlog.UserMessage) {
	h.msgs = closeOpen(h.msgs, h.open)
	h.msgs = appendUserText(h.msgs, m.Text)
}

func (h *history) AssistantMessage(m eventlog.AssistantMessage) {
	h.msgs = closeOpen(h.msgs, h.open)
	h.msgs = append(h.msgs, assistantOf(m, h.open))
}

func (h *history) ToolResult(r eventlog.ToolResult) {
	if _, waiting := h.open[r.CallID]; waiting {
		delete(h.open, r.CallID)
		h.msgs = appendResult(h.msgs, provider.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content, IsError: r.IsError})
	}
}

func (h *history) Unreadable(u eventlog.Unreadable) {
	h.msgs = closeOpen(h.msgs, h.open)
	h.msgs = appendUserText(h.msgs, fmt.Sprintf(unreadableNote, u.Seq, u.Type))
}

func assistantOf(m eventlog.AssistantMessage, open map[string]string) provider.Message {
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
