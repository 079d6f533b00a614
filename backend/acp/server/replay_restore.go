package server

import (
	"fmt"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/eventlog"
)

// Restores and reviews are the person's own changes to the workspace, made in AgentDesk between
// turns. session/load replays each as a finished edit call (kind edit, the files as locations)
// so an editor shows that the files changed there and what became of them; checkpoints
// themselves are bookkeeping and are not replayed.

func (r *replayer) Restore(m eventlog.Restore) {
	n := len(r.out)
	id := acp.ToolCallId(fmt.Sprintf("agentdesk-restore-%d-%d", m.CheckpointID, n))
	key := "acp.restore.files"
	switch m.Scope {
	case eventlog.ScopeConversation:
		key = "acp.restore.conversation"
	case eventlog.ScopeBoth:
		key = "acp.restore.both"
	}
	title := r.s.t(key, map[string]any{"ID": m.CheckpointID, "Count": len(m.Changed)})
	r.out = append(r.out, r.finishedEdit(id, title, m.Changed, changeLines(m.Changed))...)
}

func (r *replayer) Review(m eventlog.Review) {
	key := "acp.review.accepted"
	if m.Action == eventlog.ReviewRevert {
		key = "acp.review.reverted"
	}
	id := acp.ToolCallId(fmt.Sprintf("agentdesk-review-%d", len(r.out)))
	title := r.s.t(key, map[string]any{"Path": m.Path})
	text := m.Patch
	if strings.TrimSpace(m.Reason) != "" {
		text = strings.TrimSpace(text + "\n" + m.Reason)
	}
	r.out = append(r.out, r.finishedEdit(id, title, []eventlog.FileChange{{Path: m.Path}}, text)...)
}

// finishedEdit is a completed edit call over files (relative to the workspace).
func (r *replayer) finishedEdit(id acp.ToolCallId, title string, files []eventlog.FileChange, text string) []acp.SessionUpdate {
	var locs []acp.ToolCallLocation
	for _, f := range files {
		p := f.Path
		if r.w.workspace != "" {
			p = filepath.Join(r.w.workspace, filepath.FromSlash(f.Path))
		}
		locs = append(locs, acp.ToolCallLocation{Path: p})
	}
	start := acp.StartToolCall(id, title, acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations(locs))
	return []acp.SessionUpdate{start, toolDone(string(id), text, false)}
}

func changeLines(changes []eventlog.FileChange) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "%s %s\n", c.Action, c.Path)
	}
	return b.String()
}
