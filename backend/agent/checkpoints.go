package agent

import (
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/policy"
)

// EventCheckpoint is the broadcast of a snapshot the runtime took (the log keeps an
// eventlog.Checkpoint): the transcript shows it as a marker to restore from, and a tool call's
// card lists what the call changed.
const EventCheckpoint = "checkpoint.created"

// CheckpointView is the payload of checkpoint.created, and how the transcript shows a
// checkpoint of the log.
type CheckpointView struct {
	SessionID    string         `json:"sessionId,omitempty"`
	TurnID       string         `json:"turnId,omitempty"`
	CallID       string         `json:"callId,omitempty"`
	CheckpointID int64          `json:"checkpointId,omitempty"`
	Reason       string         `json:"reason"`
	Files        int            `json:"files,omitempty"`
	From         int64          `json:"from,omitempty"`
	Changed      []FileChange   `json:"changed,omitempty"`
	Error        string         `json:"error,omitempty"`
	ErrorArgs    map[string]any `json:"errorArgs,omitempty"`
}

// FileChange is one changed file as the window sees it.
type FileChange struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

// ViewOf is the window's form of a logged checkpoint.
func ViewOf(sessionID string, c eventlog.Checkpoint) CheckpointView {
	return CheckpointView{SessionID: sessionID, TurnID: c.TurnID, CallID: c.CallID, CheckpointID: c.CheckpointID,
		Reason: c.Reason, Files: c.Files, From: c.From, Changed: ChangeViews(c.Changed), Error: c.Error,
		ErrorArgs: c.ErrorArgs}
}

// ChangeViews is the window's form of logged file changes.
func ChangeViews(in []eventlog.FileChange) []FileChange {
	out := make([]FileChange, len(in))
	for i, c := range in {
		out[i] = FileChange(c)
	}
	return out
}

// snapshotsAround reports the calls the workspace is snapshotted around: every call that may
// change files (a write, an edit, a shell command) and every call the gate cannot classify.
func snapshotsAround(k policy.Kind) bool { return k.Mutates() || k == policy.KindOther }

// snapshot records the workspace now, logs it and announces it. since is the checkpoint the
// change list is measured from (0: none). A snapshot that fails does not stop the turn: the log
// says it is missing, so the person knows this step cannot be undone. It returns the new
// checkpoint's id, or 0.
func (t *turn) snapshot(reason, callID string, since int64) int64 {
	cs := t.rt.opts.Checkpoints
	if cs == nil {
		return 0
	}
	ev := eventlog.Checkpoint{TurnID: t.active.turnID, CallID: callID, Reason: reason}
	c, err := cs.Snapshot(checkpoint.Request{SessionID: t.sessionID, TurnID: t.active.turnID, Workspace: t.workspace,
		Reason: reason, Detail: callID})
	if err == nil {
		ev.CheckpointID, ev.Files, ev.From = c.ID, c.Files, since
		ev.Changed, err = changedSince(cs, since, c.ID)
	}
	if err != nil {
		e := errs.As(err)
		ev.Error, ev.ErrorArgs = string(e.Kind), e.Args
	}
	if err := t.record(ev); err != nil {
		t.rt.publishFailure(t.sessionID, err)
	}
	t.rt.opts.Publish(EventCheckpoint, ViewOf(t.sessionID, ev))
	return ev.CheckpointID
}

// changedSince lists the files that differ between two checkpoints, by path.
func changedSince(cs *checkpoint.Store, from, to int64) ([]eventlog.FileChange, error) {
	if from == 0 {
		return nil, nil
	}
	changes, err := cs.Diff(from, to)
	if err != nil {
		return nil, err
	}
	return FileChanges(changes), nil
}

// FileChanges names each change by path and action, as the log keeps them.
func FileChanges(changes []checkpoint.Change) []eventlog.FileChange {
	out := make([]eventlog.FileChange, 0, len(changes))
	for _, c := range changes {
		out = append(out, eventlog.FileChange{Path: c.Path, Action: c.Action})
	}
	return out
}

// aroundTool runs the call between two snapshots when it may change files: the shell's side
// effects are then what differs between them.
func (t *turn) aroundTool(g *gated, run func()) {
	if !snapshotsAround(g.desc.Gate.Kind) {
		run()
		return
	}
	before := t.snapshot(checkpoint.ReasonBeforeTool, g.call.ID, 0)
	run()
	t.snapshot(checkpoint.ReasonAfterTool, g.call.ID, before)
}
