package server

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

// A decision whose payload does not read is declined with the error in words, never put to the
// client as an empty approval: the server declines it before any request reaches the wire.
func TestAnUnreadableDecisionIsDeclinedWithWhy(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, _ := st.CreateSession(store.NewSession{Title: "t", Workspace: "/w"})
	b := bus.New()
	defer b.Close(context.Background())
	reg := decision.New(st, b.Publish, decision.Options{})
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan decision.Decision, 1)
	b.Subscribe(func(e bus.Event) {
		if e.Name == decision.EventAsked {
			asked <- e.Data.(decision.Decision)
		}
	})
	// No connection: a request that reached for the client would panic.
	s := &Server{opts: Options{Decisions: reg, Messages: msgs, Lang: "en"}, asks: map[string]context.CancelFunc{}}
	done := make(chan decision.Resolution, 1)
	go func() {
		_, res, _ := reg.Ask(context.Background(), decision.Request{SessionID: sess.ID, Kind: decision.KindApproval,
			Payload: map[string]string{"summary": "rm -rf build"}})
		done <- res
	}()
	s.ask(<-asked, "")
	res := <-done
	if res.Outcome != decision.Rejected || !strings.Contains(res.Reason, "could not be read") || !strings.Contains(res.Reason, "tool is missing") {
		t.Fatalf("declined with %+v", res)
	}
}
