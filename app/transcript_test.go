package app

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	_ "github.com/glebarez/go-sqlite"

	"agentdesk/backend/bus"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/store"
)

// An entry of the log that no reader can decode shows in the transcript, in its place, as an
// "unreadable" item; the entries around it read as before (today's readers skipped it).
func TestTheTranscriptShowsAnUnreadableEntryInItsPlace(t *testing.T) {
	svc := newServices(t)
	sess, err := svc.Store.CreateSession(store.NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	steps := []eventlog.Event{
		eventlog.UserMessage{TurnID: "t1", Text: "list the files"},
		eventlog.AssistantMessage{TurnID: "t1", Text: "Listing.", ToolCalls: []eventlog.CallRecord{{ID: "c1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}}},
	}
	for _, e := range steps {
		if _, err := svc.Store.AppendStep(sess.ID, e); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := sql.Open("sqlite", svc.Store.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// A damaged row: the result of c1 with a number where its call id belongs.
	if _, err := raw.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at)
		VALUES (?, 4, 'tool.result', '{"turn_id":"t1","call_id":1,"content":"a b"}', '2025-01-01')`, sess.ID); err != nil {
		t.Fatal(err)
	}
	raw.Exec(`UPDATE sessions SET event_seq = 4 WHERE id = ?`, sess.ID)
	if _, err := svc.Store.AppendStep(sess.ID, eventlog.AssistantMessage{TurnID: "t1", Text: "Done."}); err != nil {
		t.Fatal(err)
	}

	tr, err := (&Sessions{svc}).Transcript(TranscriptRequest{ID: sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, it := range tr.Items {
		types = append(types, it.Type)
	}
	want := []string{"mode", "user", "assistant", "tool", "unreadable", "assistant"}
	if len(types) != len(want) {
		t.Fatalf("items %v, want %v", types, want)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Fatalf("items %v, want %v", types, want)
		}
	}
	if u := tr.Items[4]; u.Seq != 4 || u.LogType != "tool.result" {
		t.Fatalf("the unreadable item names its entry: %+v", u)
	}
	if tool := tr.Items[3]; tool.Output != "" {
		t.Fatalf("the call's result was unreadable, yet the card shows %q", tool.Output)
	}
	body, _ := json.Marshal(tr.Items[4])
	if string(body) != `{"type":"unreadable","turnId":"","seq":4,"logType":"tool.result"}` {
		t.Fatalf("wire shape: %s", body)
	}
}

// A long session is read a page at a time, newest first: the pages, put together as the window
// does when the person scrolls up, are the whole timeline, each item once, and a call on one
// page shows the result recorded on the next.
func TestTheTranscriptPagesMakeTheWholeTimeline(t *testing.T) {
	svc := newServices(t)
	sess, err := svc.Store.CreateSession(store.NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var steps []eventlog.Event
	for i := 0; i < 260; i++ {
		id := fmt.Sprint("c", i)
		steps = append(steps, eventlog.AssistantMessage{TurnID: "t1", Text: fmt.Sprint("step ", i),
			ToolCalls: []eventlog.CallRecord{{ID: id, Name: "read", Input: json.RawMessage(`{}`)}}},
			eventlog.ToolResult{TurnID: "t1", CallID: id, Name: "read", Content: fmt.Sprint("result ", i)})
	}
	if _, err := svc.Store.AppendSteps(sess.ID, steps...); err != nil {
		t.Fatal(err)
	}
	log, _ := svc.Store.Log(sess.ID)
	whole := timeline(log).items
	f := &Sessions{svc}
	page, err := f.Transcript(TranscriptRequest{ID: sess.ID, Limit: 101}) // odd: the page starts at a result
	if err != nil || !page.More || page.Last != int64(len(log)) || page.Last-page.First != 100 {
		t.Fatalf("newest page: first %d last %d more %v, %v", page.First, page.Last, page.More, err)
	}
	got := page.Items
	for page.More {
		if page, err = f.Transcript(TranscriptRequest{ID: sess.ID, Limit: 101, Before: page.First}); err != nil {
			t.Fatal(err)
		}
		got = append(page.Items, got...)
	}
	// The page that ends with a call and starts the next with its result shows the call whole,
	// and the result entry alone adds no item.
	if len(got) != len(whole) {
		t.Fatalf("%d items in pages, %d in the timeline", len(got), len(whole))
	}
	for i := range whole {
		if got[i].Seq != whole[i].Seq || got[i].Output != whole[i].Output || got[i].Text != whole[i].Text {
			t.Fatalf("item %d: %+v, want %+v", i, got[i], whole[i])
		}
	}
	if _, err := f.Transcript(TranscriptRequest{ID: sess.ID, Limit: MaxTranscriptPage + 1}); err == nil {
		t.Fatal("a page beyond the bound was served")
	}
}

// Verified mode's reminder to verify is AgentDesk's note, not a message of the person's: it
// reads as a "nudge" item, with the words the model received, never as a user bubble.
func TestTheTranscriptShowsANudgeAsAgentDesksNote(t *testing.T) {
	log := []eventlog.Record{
		{Seq: 1, Payload: eventlog.UserMessage{TurnID: "t1", Text: "create x.txt"}},
		{Seq: 2, Payload: eventlog.AssistantMessage{TurnID: "t1", Text: "Done."}},
		{Seq: 3, Payload: eventlog.UserMessage{TurnID: "t1", Text: "Run a check.", Steer: true, Nudge: true}},
		{Seq: 4, Payload: eventlog.UserMessage{TurnID: "t1", Text: "also add y.txt", Steer: true}},
	}
	items := timeline(log).items
	var types []string
	for _, it := range items {
		types = append(types, it.Type)
	}
	if fmt.Sprint(types) != "[user assistant nudge user]" {
		t.Fatalf("items %v", types)
	}
	if n := items[2]; n.Text != "Run a check." || n.Steer || n.Seq != 3 {
		t.Fatalf("nudge item %+v", n)
	}
	if !items[3].Steer {
		t.Fatalf("the person's own steer stays theirs: %+v", items[3])
	}
}

// A permission change shows in the transcript where it happened, like a mode change, and is
// announced live.
func TestAPermissionChangeIsAMarkerInTheTranscript(t *testing.T) {
	svc := newServices(t)
	sessions := &Sessions{svc}
	sess, err := svc.Store.CreateSession(store.NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan PermissionView, 4)
	sub := svc.Bus.Subscribe(func(e bus.Event) {
		if v, ok := e.Data.(PermissionView); ok && e.Name == EventPermissionChanged {
			got <- v
		}
	})
	defer sub.Close()
	if _, err := sessions.SetPermission(SetSessionPermissionRequest{ID: sess.ID, PermissionMode: "full"}); err != nil {
		t.Fatal(err)
	}
	tr, err := sessions.Transcript(TranscriptRequest{ID: sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Items[len(tr.Items)-1]
	if last.Type != "permission" || last.PermissionMode != "full" {
		t.Fatalf("items: %+v", tr.Items)
	}
	select {
	case v := <-got:
		if v.SessionID != sess.ID || v.PermissionMode != "full" {
			t.Fatalf("event: %+v", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no session.permission event")
	}
}
