package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/provider"
)

func entry(seq int64, e eventlog.Event) eventlog.Entry {
	raw, _ := eventlog.Encode(e)
	return eventlog.Entry{Seq: seq, Type: e.LogType(), Payload: raw}
}

// The model is told where its history has an entry that cannot be read, and a call whose
// result is that entry is answered as interrupted: the conversation stays well-formed and
// nothing is silently dropped.
func TestTheModelIsToldOfAnUnreadableEntry(t *testing.T) {
	log := eventlog.Read([]eventlog.Entry{
		entry(1, eventlog.UserMessage{TurnID: "t", Text: "list"}),
		entry(2, eventlog.AssistantMessage{TurnID: "t", ToolCalls: []eventlog.CallRecord{{ID: "c1", Name: "bash", Input: json.RawMessage(`{}`)}}}),
		{Seq: 3, Type: eventlog.TypeToolResult, Payload: []byte(`{"turn_id":"t","call_id":`)},
		entry(4, eventlog.AssistantMessage{TurnID: "t", Text: "Done."}),
	})
	msgs := buildHistory(log)
	if len(msgs) != 4 {
		t.Fatalf("%d messages: %+v", len(msgs), msgs)
	}
	results := msgs[2]
	if results.Role != provider.RoleUser || len(results.ToolResults) != 1 || results.ToolResults[0].Content != interruptedResult ||
		!strings.Contains(results.Text, "entry 3") || !strings.Contains(results.Text, "tool.result") {
		t.Fatalf("the gap must be said: %+v", results)
	}
	if msgs[3].Role != provider.RoleAssistant || msgs[3].Text != "Done." {
		t.Fatalf("what follows still reads: %+v", msgs[3])
	}
}
