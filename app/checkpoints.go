package app

import (
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/rewind"
)

// Checkpoints is the facade of checkpoints, restores and the review of a turn's changes.
type Checkpoints struct{ s *Services }

// CheckpointsRequest names a session.
type CheckpointsRequest struct {
	SessionID string `json:"sessionId"`
}

// List is the session's checkpoints, newest first.
func (f *Checkpoints) List(req CheckpointsRequest) ([]checkpoint.Checkpoint, error) {
	list, err := f.s.Review.List(req.SessionID)
	if err != nil {
		return nil, f.s.fail(err)
	}
	return orEmpty(list), nil
}

// RestoreRequest names a checkpoint of a session and what to restore: "files",
// "conversation" or "both". Deletes, on Restore, are the files the preview listed for deletion.
type RestoreRequest struct {
	SessionID    string   `json:"sessionId"`
	CheckpointID int64    `json:"checkpointId"`
	Scope        string   `json:"scope"`
	Deletes      []string `json:"deletes,omitempty"`
}

// Preview says what a restore would do, before the person confirms it.
func (f *Checkpoints) Preview(req RestoreRequest) (rewind.Preview, error) {
	p, err := f.s.Review.Preview(rewind.PreviewRequest{SessionID: req.SessionID, CheckpointID: req.CheckpointID, Scope: req.Scope})
	if err != nil {
		return rewind.Preview{}, f.s.fail(err)
	}
	return p, nil
}

// RestoreResult is a finished restore: its log event, and the session the conversation
// continues in when it was restored.
type RestoreResult struct {
	Restore RestoreItem `json:"restore"`
	Fork    *Session    `json:"fork,omitempty"`
}

// Restore carries out a confirmed restore.
func (f *Checkpoints) Restore(req RestoreRequest) (RestoreResult, error) {
	done, err := f.s.Review.Restore(rewind.RestoreRequest{SessionID: req.SessionID, CheckpointID: req.CheckpointID,
		Scope: req.Scope, Deletes: req.Deletes})
	if err != nil {
		return RestoreResult{}, f.s.fail(err)
	}
	out := RestoreResult{Restore: restoreItem(done.Event)}
	if done.Fork != nil {
		sess := &Sessions{f.s}
		v, err := sess.changed(sess.svc().View(done.Fork.ID))
		if err != nil {
			return RestoreResult{}, err
		}
		out.Fork = &v
	}
	return out, nil
}

// TurnRequest names a turn of a session.
type TurnRequest struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
}

// Changes is the turn's "Changes" view: each file's diff as hunks, with the person's verdicts.
func (f *Checkpoints) Changes(req TurnRequest) (rewind.TurnChanges, error) {
	c, err := f.s.Review.Changes(req.SessionID, req.TurnID)
	if err != nil {
		return rewind.TurnChanges{}, f.s.fail(err)
	}
	return c, nil
}

// ReviewRequest accepts or reverts a turn's change to a file, whole or by hunk (0-based
// indexes of the Changes view's hunks), with a reason the model reads at the next turn.
type ReviewRequest struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Path      string `json:"path"`
	Action    string `json:"action"`
	Hunks     []int  `json:"hunks,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// Review records the verdict (reverting first when asked) and returns the view afresh.
func (f *Checkpoints) Review(req ReviewRequest) (rewind.TurnChanges, error) {
	if _, err := f.s.Review.Apply(rewind.ReviewRequest{SessionID: req.SessionID, TurnID: req.TurnID, Path: req.Path,
		Action: req.Action, Hunks: req.Hunks, Reason: req.Reason}); err != nil {
		return rewind.TurnChanges{}, f.s.fail(err)
	}
	return f.Changes(TurnRequest{SessionID: req.SessionID, TurnID: req.TurnID})
}

func restoreItem(r eventlog.Restore) RestoreItem {
	return RestoreItem{CheckpointID: r.CheckpointID, TurnID: r.TurnID, Scope: r.Scope, UndoID: r.UndoID,
		Changed: agentChanges(orEmpty(r.Changed)), ForkID: r.ForkID, ForkOf: r.ForkOf}
}
