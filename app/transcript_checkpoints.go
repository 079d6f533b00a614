package app

import (
	"agentdesk/backend/agent"
	"agentdesk/backend/eventlog"
)

// RestoreItem is a restore as the transcript shows it: what was restored, and the checkpoint
// that undoes it.
type RestoreItem struct {
	CheckpointID int64              `json:"checkpointId"`
	TurnID       string             `json:"turnId,omitempty"`
	Scope        string             `json:"scope"`
	UndoID       int64              `json:"undoId,omitempty"`
	Changed      []agent.FileChange `json:"changed"`
	ForkID       string             `json:"forkId,omitempty"`
	ForkOf       string             `json:"forkOf,omitempty"`
}

// ReviewItem is the person's verdict on a turn's change to a file.
type ReviewItem struct {
	TurnID string `json:"turnId"`
	Path   string `json:"path"`
	Action string `json:"action"`
	Hunks  []int  `json:"hunks,omitempty"`
	Reason string `json:"reason,omitempty"`
	UndoID int64  `json:"undoId,omitempty"`
}

// Checkpoint: a turn's checkpoint is the marker to restore from; a tool call's after-snapshot
// lists what the call changed; a before-snapshot shows nothing of its own.
func (tl *timelineReader) Checkpoint(c eventlog.Checkpoint) {
	if c.Reason == "before_tool" && c.Error == "" {
		return
	}
	v := agent.ViewOf("", c)
	tl.items = append(tl.items, Item{Type: "checkpoint", TurnID: c.TurnID, CallID: c.CallID, Checkpoint: &v})
}

func (tl *timelineReader) Restore(r eventlog.Restore) {
	item := restoreItem(r)
	tl.items = append(tl.items, Item{Type: "restore", Restore: &item})
}

func agentChanges(in []eventlog.FileChange) []agent.FileChange { return agent.ChangeViews(in) }

func (tl *timelineReader) Review(r eventlog.Review) {
	tl.items = append(tl.items, Item{Type: "review", Review: &ReviewItem{TurnID: r.TurnID, Path: r.Path, Action: r.Action,
		Hunks: r.Hunks, Reason: r.Reason, UndoID: r.UndoID}})
}
