package agent

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
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

// The history a turn keeps in memory reads, at every step, exactly what a rebuild from the
// whole log reads: after its own steps, steering, a /clear, an open call and more entries than
// one read takes.
func TestTheKeptHistoryIsTheLogsHistory(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, _ := st.CreateSession(store.NewSession{Title: "s", Workspace: "/w"})
	var conv conversation
	check := func(when string) {
		t.Helper()
		got, err := conv.messages(st, sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		log, _ := st.Log(sess.ID)
		if want := buildHistory(log); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: kept %d messages, the log reads %d:\n%+v\n%+v", when, len(got), len(want), got, want)
		}
	}
	call := func(id string) eventlog.Event {
		return eventlog.AssistantMessage{TurnID: "t", ToolCalls: []eventlog.CallRecord{{ID: id, Name: "read", Input: json.RawMessage(`{}`)}}}
	}
	st.AppendSteps(sess.ID, eventlog.UserMessage{TurnID: "t", Text: "go"})
	check("first")
	st.AppendSteps(sess.ID, call("c1"))
	check("a call open") // answered as interrupted in what is sent...
	st.AppendSteps(sess.ID, eventlog.ToolResult{TurnID: "t", CallID: "c1", Name: "read", Content: "ok"})
	check("its result") // ...and its own result in what follows
	st.AppendSteps(sess.ID, eventlog.UserMessage{TurnID: "t", Text: "steer", Steer: true}, eventlog.AssistantMessage{TurnID: "t", Text: "a"})
	check("steered")
	st.AppendSteps(sess.ID, eventlog.ContextCleared{}, eventlog.UserMessage{TurnID: "t", Text: "again"})
	check("cleared")
	many := make([]eventlog.Event, 0, 2*logBatch+10)
	for i := 0; len(many) < cap(many); i++ {
		many = append(many, call(fmt.Sprint("m", i)), eventlog.ToolResult{TurnID: "t", CallID: fmt.Sprint("m", i), Name: "read", Content: "r"})
	}
	st.AppendSteps(sess.ID, many...)
	check("more than one read")
}
