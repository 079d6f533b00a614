package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/store"
)

// A compaction shows in the transcript in its place, with its summary and range, and the
// entries it summarised still show above it; Fork with Before copies them without it.
func TestTheTranscriptShowsACompactionAndForksBeforeIt(t *testing.T) {
	svc := newServices(t)
	sess, err := svc.Store.CreateSession(store.NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := svc.Store.AppendSteps(sess.ID,
		eventlog.UserMessage{TurnID: "t1", Text: "first"},
		eventlog.AssistantMessage{TurnID: "t1", Text: "answer"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Store.AppendStep(sess.ID, eventlog.ContextCompacted{TurnID: "t1", From: evs[0].Seq, Through: evs[1].Seq,
		Summary: "they talked", TokensBefore: 900, TokensAfter: 120, Window: 1000})
	if err != nil {
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
	if strings.Join(types, ",") != "mode,user,assistant,compacted" {
		t.Fatalf("items %v", types)
	}
	body, _ := json.Marshal(tr.Items[3])
	want := fmt.Sprintf(`{"type":"compacted","turnId":"t1","seq":%d,"compacted":{"from":%d,"through":%d,"summary":"they talked","tokensBefore":900,"tokensAfter":120,"window":1000}}`,
		c.Seq, evs[0].Seq, evs[1].Seq)
	if string(body) != want {
		t.Fatalf("wire shape:\n%s\nwant\n%s", body, want)
	}
	fork, err := (&Sessions{svc}).Fork(ForkRequest{ID: sess.ID, Before: c.Seq})
	if err != nil {
		t.Fatal(err)
	}
	ftr, err := (&Sessions{svc}).Transcript(TranscriptRequest{ID: fork.ID})
	if err != nil || len(ftr.Items) != 3 || ftr.Items[2].Text != "answer" {
		t.Fatalf("the fork: %+v %v", ftr.Items, err)
	}
}
