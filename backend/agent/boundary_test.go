package agent

import (
	"database/sql"
	"testing"

	_ "github.com/glebarez/go-sqlite"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// The boundary after a turn is one store operation whose failure is reported, not swallowed:
// the queued switch and message stay queued, nothing of them half applies, session.failed says
// why, and the next message crosses the boundary once the store works again.
func TestAFailedBoundaryIsReportedAndLosesNothing(t *testing.T) {
	h := newHarness(t, script(`{"text":"working","delay_ms":300}`, `{"text":"in chat"}`, `{"text":"after"}`), harnessOpts{})
	if _, err := h.rt.Send(Input{SessionID: h.session, Text: "one"}); err != nil {
		t.Fatal(err)
	}
	if ack, err := h.rt.Send(Input{SessionID: h.session, Text: "two", Mode: mode.FollowUpInput{InteractionMode: str("chat")}}); err != nil || !ack.Queued {
		t.Fatalf("%+v %v", ack, err)
	}
	raw, err := sql.Open("sqlite", h.st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TRIGGER no_turns BEFORE INSERT ON turns BEGIN SELECT RAISE(ABORT, 'disk says no'); END`); err != nil {
		t.Fatal(err)
	}
	h.wait()
	failed := h.named(EventSessionFailed)
	if len(failed) != 1 || failed[0].Data.(SessionFailed).Kind != string(errs.StoreFailure) {
		t.Fatalf("session.failed: %+v", failed)
	}
	if q, _ := h.st.Queue(h.session); q.Len() != 2 {
		t.Fatalf("the queue lost items: %d", q.Len())
	}
	if p := h.pref(); p.Interaction != mode.Smart {
		t.Fatalf("half a boundary applied: %+v", p)
	}
	raw.Exec(`DROP TRIGGER no_turns`)
	ack, err := h.rt.Send(Input{SessionID: h.session, Text: "three", Mode: mode.FollowUpInput{InteractionMode: str("chat")}})
	if err != nil || !ack.Queued {
		t.Fatalf("%+v %v", ack, err)
	}
	h.wait()
	turns := h.turns()
	if len(turns) != 3 || turns[1].Prompt != "two" || turns[1].ExecutionMode != "chat" || turns[2].Prompt != "three" {
		t.Fatalf("turns after the retry: %+v", turns)
	}
}
