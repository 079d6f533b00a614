package server

import (
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/i18n"
)

// session/load replays an entry it cannot read as a line of agent text naming it, never by
// leaving it out.
func TestReplaySaysWhereAnEntryCouldNotBeRead(t *testing.T) {
	log := eventlog.Read([]eventlog.Entry{
		{Seq: 1, Type: eventlog.TypeUserMessage, Payload: []byte(`{"turn_id":"t","text":"hi"}`)},
		{Seq: 2, Type: eventlog.TypeAssistantMessage, Payload: []byte(`{"turn_id":"t","text":5}`)},
	})
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	got := (&Server{opts: Options{Messages: msgs, Lang: "en"}}).replay(log, where{})
	if len(got) != 2 || got[0].UserMessageChunk == nil || got[1].AgentMessageChunk == nil {
		t.Fatalf("updates: %+v", got)
	}
	if text := got[1].AgentMessageChunk.Content.Text.Text; !strings.Contains(text, "Entry 2") || !strings.Contains(text, "message.assistant") {
		t.Fatalf("the unreadable entry replays as %q", text)
	}
}

// session/load replays a compaction as an agent thought with the summary, after the entries it
// summarised (which replay as they were).
func TestReplayShowsACompactionAsAThought(t *testing.T) {
	log := eventlog.Read([]eventlog.Entry{
		{Seq: 1, Type: eventlog.TypeUserMessage, Payload: []byte(`{"turn_id":"t","text":"hi"}`)},
		{Seq: 2, Type: eventlog.TypeAssistantMessage, Payload: []byte(`{"turn_id":"t","text":"hello"}`)},
		{Seq: 3, Type: eventlog.TypeContextCompacted, Payload: []byte(`{"turn_id":"t","from":1,"through":2,"summary":"they greeted"}`)},
	})
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	got := (&Server{opts: Options{Messages: msgs, Lang: "en"}}).replay(log, where{})
	if len(got) != 3 || got[0].UserMessageChunk == nil || got[1].AgentMessageChunk == nil || got[2].AgentThoughtChunk == nil {
		t.Fatalf("updates: %+v", got)
	}
	if text := got[2].AgentThoughtChunk.Content.Text.Text; !strings.Contains(text, "they greeted") || !strings.Contains(text, "1–2") {
		t.Fatalf("the compaction replays as %q", text)
	}
}
