package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

// A decision the terminal cannot read is printed as an error in the person's language and
// declined with it at once; nothing is read from the terminal for it.
func TestAnUnreadableDecisionIsPrintedAndDeclined(t *testing.T) {
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
	stdin, typist := io.Pipe()
	defer typist.Close()
	var errOut syncBuffer
	c := &Context{Env: Env{Stdin: stdin, Stderr: &errOut, IsTerminal: func() bool { return true }}, msgs: msgs, lang: "zh-CN"}
	stop := c.startDecider(b, reg, nil)
	defer stop()
	cases := map[decision.Kind]any{
		decision.KindQuestion:    map[string]any{"options": []string{"a"}},
		decision.KindElicitation: map[string]any{"server": "fx", "message": "?", "schema": map[string]any{"properties": map[string]any{"a": map[string]any{"type": 7}}}},
	}
	for kind, payload := range cases {
		_, res, err := reg.Ask(context.Background(), decision.Request{SessionID: sess.ID, Kind: kind, Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != decision.Rejected || !strings.Contains(res.Reason, "could not be read") {
			t.Errorf("%s: declined with %+v", kind, res)
		}
	}
	if got := errOut.String(); strings.Count(got, "无法读取") != 2 {
		t.Fatalf("the terminal showed:\n%s", got)
	}
}
