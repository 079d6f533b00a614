package server

import (
	"fmt"
	"testing"

	"agentdesk/backend/eventlog"
)

// session/load replays an entry it cannot read as a line of agent text naming it, never by
// leaving it out.
func TestReplaySaysWhereAnEntryCouldNotBeRead(t *testing.T) {
	log := eventlog.Read([]eventlog.Entry{
		{Seq: 1, Type: eventlog.TypeUserMessage, Payload: []byte(`{"turn_id":"t","text":"hi"}`)},
		{Seq: 2, Type: eventlog.TypeAssistantMessage, Payload: []byte(`{"turn_id":"t","text":5}`)},
	})
	msg := func(key string, args map[string]any) string {
		return fmt.Sprint(key, " ", args["Seq"], " ", args["Type"])
	}
	got := replay(log, msg)
	if len(got) != 2 || got[0].UserMessageChunk == nil || got[1].AgentMessageChunk == nil {
		t.Fatalf("updates: %+v", got)
	}
	if text := got[1].AgentMessageChunk.Content.Text.Text; text != "log.unreadable 2 message.assistant" {
		t.Fatalf("the unreadable entry replays as %q", text)
	}
}
