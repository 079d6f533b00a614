package rewind

import (
	"slices"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/hunk"
	"agentdesk/backend/store"
)

// FileDiff is one file a restore or a turn changes: the two sides and the hunks between them
// (computed here, the same hunks a review accepts or reverts).
type FileDiff struct {
	Path   string      `json:"path"`
	Action string      `json:"action"`
	Before string      `json:"before"`
	After  string      `json:"after"`
	Hunks  []hunk.Hunk `json:"hunks"`
	// Omitted says why a side is not shown ("binary", "too_large", "link", "large_file").
	Omitted string `json:"omitted,omitempty"`
	// Unrestorable: recorded by hash only, a restore leaves the file as it is.
	Unrestorable bool `json:"unrestorable,omitempty"`
}

func diffOf(path, action string, before, after Text) FileDiff {
	d := FileDiff{Path: path, Action: action, Before: before.Content, After: after.Content}
	d.Omitted = after.Omitted
	if d.Omitted == "" {
		d.Omitted = before.Omitted
	}
	if d.Omitted != "" {
		d.Before, d.After = "", ""
		if before.Omitted == "link" || after.Omitted == "link" {
			d.Before, d.After = linkText(before), linkText(after)
		}
		return d
	}
	d.Hunks = hunk.Diff(d.Before, d.After)
	return d
}

// linkText shows a symbolic link as the path it points to.
func linkText(t Text) string {
	if t.Omitted == "link" {
		return "→ " + t.Content
	}
	return ""
}

// PreviewRequest asks what restoring a checkpoint would do.
type PreviewRequest struct {
	SessionID    string
	CheckpointID int64
	Scope        string
}

// Preview is shown before the person confirms a restore: every file it changes with its diff
// (now → as the checkpoint has it), the files it would delete, those it cannot bring back, and
// for the conversation the turn the fork starts before.
type Preview struct {
	Checkpoint   checkpoint.Checkpoint `json:"checkpoint"`
	Scope        string                `json:"scope"`
	Files        []FileDiff            `json:"files"`
	Deletes      []string              `json:"deletes"`
	Unrestorable []string              `json:"unrestorable"`
	// TurnID and Prompt name the turn a conversation restore forks before.
	TurnID string `json:"turnId,omitempty"`
	Prompt string `json:"prompt,omitempty"`
}

// List is the session's checkpoints, newest first.
func (s *Service) List(sessionID string) ([]checkpoint.Checkpoint, error) {
	if s.Checkpoints == nil {
		return nil, errs.New(Unavailable)
	}
	if _, err := s.Store.GetSession(sessionID); err != nil {
		return nil, err
	}
	list, err := s.Checkpoints.List(sessionID)
	slices.Reverse(list)
	return list, err
}

func validScope(scope string) error {
	switch scope {
	case eventlog.ScopeFiles, eventlog.ScopeConversation, eventlog.ScopeBoth:
		return nil
	}
	return errs.Invalid("scope", scope, []string{eventlog.ScopeFiles, eventlog.ScopeConversation, eventlog.ScopeBoth})
}

// Preview compares the workspace now with the checkpoint.
func (s *Service) Preview(req PreviewRequest) (Preview, error) {
	if err := validScope(req.Scope); err != nil {
		return Preview{}, err
	}
	if s.Checkpoints == nil {
		return Preview{}, errs.New(Unavailable)
	}
	c, err := s.checkpointOf(req.SessionID, req.CheckpointID)
	if err != nil {
		return Preview{}, err
	}
	out := Preview{Checkpoint: c, Scope: req.Scope, Files: []FileDiff{}, Deletes: []string{}, Unrestorable: []string{}}
	if req.Scope != eventlog.ScopeFiles {
		if out.TurnID, out.Prompt, err = s.turnOf(c); err != nil {
			return Preview{}, err
		}
	}
	if req.Scope == eventlog.ScopeConversation {
		return out, nil
	}
	plan, err := s.Checkpoints.PlanRestore(c.ID, checkpoint.RestoreOptions{})
	if err != nil {
		return Preview{}, err
	}
	out.Deletes, out.Unrestorable = plan.Deletes, plan.Unrestorable
	for _, ch := range plan.Changes {
		target, err := s.Checkpoints.FileAt(c.ID, ch.Path)
		if err != nil {
			return Preview{}, err
		}
		out.Files = append(out.Files, diffOf(ch.Path, ch.Action, onDisk(c.Workspace, ch.Path), textOf(target)))
	}
	for _, p := range plan.Unrestorable {
		out.Files = append(out.Files, FileDiff{Path: p, Action: checkpoint.ActionModify, Omitted: "large_file", Unrestorable: true})
	}
	return out, nil
}

// turnOf names the turn a checkpoint belongs to; a checkpoint of no turn has no conversation.
func (s *Service) turnOf(c checkpoint.Checkpoint) (string, string, error) {
	if c.TurnID == "" {
		return "", "", errs.New(NoTurn, "ID", c.ID)
	}
	turns, err := s.Store.Turns(c.SessionID)
	if err != nil {
		return "", "", err
	}
	for _, t := range turns {
		if t.ID == c.TurnID {
			return t.ID, t.Prompt, nil
		}
	}
	return "", "", errs.New(NoTurn, "ID", c.ID)
}

// RestoreRequest is the person's confirmed restore. Deletes are the files the preview listed
// for deletion: a file that would be deleted and is not among them refuses the restore.
type RestoreRequest struct {
	SessionID    string
	CheckpointID int64
	Scope        string
	Deletes      []string
}

// Restored is what a restore did: the log's event, and the fork where the conversation goes on.
type Restored struct {
	Event eventlog.Restore `json:"event"`
	Fork  *store.Session   `json:"fork,omitempty"`
}

// Restore puts back the files, the conversation, or both. The files' restore is taken between
// two checkpoints (the event's UndoID undoes it); the conversation is a new session forked
// before the checkpoint's turn, so nothing of the present one is lost.
func (s *Service) Restore(req RestoreRequest) (Restored, error) {
	if err := validScope(req.Scope); err != nil {
		return Restored{}, err
	}
	if err := s.ready(req.SessionID); err != nil {
		return Restored{}, err
	}
	c, err := s.checkpointOf(req.SessionID, req.CheckpointID)
	if err != nil {
		return Restored{}, err
	}
	ev := eventlog.Restore{CheckpointID: c.ID, TurnID: c.TurnID, Scope: req.Scope}
	var before int64
	if req.Scope != eventlog.ScopeFiles {
		if before, err = s.turnStart(c); err != nil {
			return Restored{}, err
		}
	}
	if req.Scope != eventlog.ScopeConversation {
		seen := req.Deletes
		if seen == nil {
			seen = []string{}
		}
		done, err := s.Checkpoints.Restore(c.ID, checkpoint.Request{SessionID: req.SessionID},
			checkpoint.RestoreOptions{ConfirmDeletes: true, Seen: seen})
		if err != nil {
			return Restored{}, err
		}
		ev.UndoID, ev.ResultID, ev.Changed = done.Undo.ID, done.Result.ID, changesOf(done.Changed)
	}
	out := Restored{}
	if before > 0 {
		fork, err := s.Store.ForkSessionBefore(req.SessionID, "", before)
		if err != nil {
			return Restored{}, err
		}
		ev.ForkID, out.Fork = fork.ID, &fork
		if err := s.record(fork.ID, eventlog.Restore{CheckpointID: c.ID, TurnID: c.TurnID, Scope: req.Scope,
			UndoID: ev.UndoID, ForkOf: req.SessionID}); err != nil {
			return Restored{}, err
		}
	}
	if err := s.record(req.SessionID, ev); err != nil {
		return Restored{}, err
	}
	out.Event = ev
	s.publish(EventRestored, RestoreDone{SessionID: req.SessionID, ForkID: ev.ForkID})
	return out, nil
}

// turnStart is the first event of the checkpoint's turn (its message): a fork copies what came
// before it.
func (s *Service) turnStart(c checkpoint.Checkpoint) (int64, error) {
	if _, _, err := s.turnOf(c); err != nil {
		return 0, err
	}
	log, err := s.Store.Log(c.SessionID)
	if err != nil {
		return 0, err
	}
	for _, r := range log {
		if m, ok := r.Payload.(eventlog.UserMessage); ok && m.TurnID == c.TurnID && !m.Steer {
			return r.Seq, nil
		}
	}
	return 0, errs.New(NoTurn, "ID", c.ID)
}

func changesOf(in []checkpoint.Change) []eventlog.FileChange {
	out := make([]eventlog.FileChange, 0, len(in))
	for _, c := range in {
		out = append(out, eventlog.FileChange{Path: c.Path, Action: c.Action})
	}
	return out
}

// Diff is what changed from checkpoint from to checkpoint to (0: the workspace now), file by
// file with hunks.
func (s *Service) Diff(sessionID string, from, to int64) ([]FileDiff, error) {
	if s.Checkpoints == nil {
		return nil, errs.New(Unavailable)
	}
	a, err := s.checkpointOf(sessionID, from)
	if err != nil {
		return nil, err
	}
	if to != 0 {
		if _, err := s.checkpointOf(sessionID, to); err != nil {
			return nil, err
		}
	}
	changes, err := s.Checkpoints.Diff(from, to)
	if err != nil {
		return nil, err
	}
	out := []FileDiff{}
	for _, ch := range changes {
		old, err := s.Checkpoints.FileAt(from, ch.Path)
		if err != nil {
			return nil, err
		}
		after := onDisk(a.Workspace, ch.Path)
		if to != 0 {
			f, err := s.Checkpoints.FileAt(to, ch.Path)
			if err != nil {
				return nil, err
			}
			after = textOf(f)
		}
		out = append(out, diffOf(ch.Path, ch.Action, textOf(old), after))
	}
	return out, nil
}
