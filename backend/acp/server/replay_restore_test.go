package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
)

// A restore and a review made in AgentDesk between turns are replayed by session/load as
// finished edit calls naming the files (absolute, in the session's folder), so an editor that
// loads the session sees that the files changed there; checkpoints themselves are not replayed.
func TestSessionLoadReplaysRestoresAndReviews(t *testing.T) {
	conn, c, _, st := serve(t, `{"responses":[]}`)
	ws := t.TempDir()
	file := filepath.Join(ws, "a.txt")
	write := func(text string) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("first\n")
	sess, err := st.CreateSession(store.NewSession{Title: "restored", Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	cps, err := checkpoint.Open(t.TempDir(), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cps.Close()
	cp, err := cps.Snapshot(checkpoint.Request{SessionID: sess.ID, Workspace: ws, Reason: checkpoint.ReasonTurn})
	if err != nil {
		t.Fatal(err)
	}
	write("second\n")
	svc := &rewind.Service{Store: st, Checkpoints: cps, Publish: func(string, any) {}, Running: func(string) bool { return false }}
	done, err := svc.Restore(rewind.RestoreRequest{SessionID: sess.ID, CheckpointID: cp.ID, Scope: eventlog.ScopeFiles})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != "first\n" {
		t.Fatalf("the restore did not run: %q", got)
	}
	if _, err := st.AppendStep(sess.ID, eventlog.Review{TurnID: "t1", Path: "a.txt", Action: eventlog.ReviewRevert, Reason: "not this way"}); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	if _, err := conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: acp.SessionId(sess.ID), Cwd: ws, McpServers: []acp.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var titles, texts []string
	var restoreAt []acp.ToolCallLocation
	for _, n := range c.updates {
		u := n.Update
		if u.AgentMessageChunk != nil {
			t.Fatalf("nothing but the two calls is replayed: %q", u.AgentMessageChunk.Content.Text.Text)
		}
		if u.ToolCall != nil {
			if u.ToolCall.Kind != acp.ToolKindEdit {
				t.Fatalf("a replayed restore or review is an edit: %+v", u.ToolCall)
			}
			titles = append(titles, u.ToolCall.Title)
			if strings.HasPrefix(string(u.ToolCall.ToolCallId), "agentdesk-restore-") {
				restoreAt = u.ToolCall.Locations
			}
		}
		if u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil {
			if *u.ToolCallUpdate.Status != acp.ToolCallStatusCompleted {
				t.Fatalf("a replayed restore or review is finished: %+v", u.ToolCallUpdate)
			}
			if len(u.ToolCallUpdate.Content) > 0 && u.ToolCallUpdate.Content[0].Content != nil {
				texts = append(texts, u.ToolCallUpdate.Content[0].Content.Content.Text.Text)
			}
		}
	}
	want := []string{fmt.Sprintf("Restored files to checkpoint %d (1 changed)", done.Event.CheckpointID), "Reverted the change to a.txt"}
	if !slices.Equal(titles, want) {
		t.Fatalf("replayed calls %q, want %q", titles, want)
	}
	if len(restoreAt) != 1 || restoreAt[0].Path != file {
		t.Fatalf("the restore names the file in the session's folder: %+v", restoreAt)
	}
	if len(texts) != 2 || !strings.Contains(texts[0], "modify a.txt") || !strings.Contains(texts[1], "not this way") {
		t.Fatalf("what the replayed calls say: %q", texts)
	}
}
