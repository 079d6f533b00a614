package host

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"agentdesk/backend/agent"
	"agentdesk/backend/checkpoint"
)

// The host owns the data folder's one checkpoint store: its turns take checkpoints there, and
// Close closes the store after the turns, so what they recorded is there for the next process.
func TestTheHostsTurnsTakeCheckpointsKeptAfterClose(t *testing.T) {
	r := newRig(t, `{"responses":[{"tool_calls":[{"name":"write","input":{"path":"a.txt","content":"a\n"}}]},{"text":"done"}]}`, "full")
	if r.h.Checkpoints == nil || r.h.CheckpointErr != nil || r.h.Review == nil {
		t.Fatalf("no checkpoint store: %v", r.h.CheckpointErr)
	}
	if _, err := r.h.Runtime.Send(agent.Input{SessionID: r.session, Text: "write"}); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, agent.EventTurnEnded)
	if err := r.h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "a.txt")); err != nil {
		t.Fatal("the turn did not write")
	}
	cps, err := checkpoint.Open(r.dir, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cps.Close()
	list, err := cps.List(r.session)
	if err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for _, c := range list {
		reasons = append(reasons, c.Reason)
	}
	for _, want := range []string{checkpoint.ReasonTurn, checkpoint.ReasonBeforeTool, checkpoint.ReasonAfterTool, checkpoint.ReasonTurnEnd} {
		if !slices.Contains(reasons, want) {
			t.Fatalf("checkpoints %v lack %s", reasons, want)
		}
	}
}
