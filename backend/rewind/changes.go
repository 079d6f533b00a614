package rewind

import (
	"slices"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/hunk"
)

// Review states of a file or a hunk.
const (
	StatePending  = "pending"
	StateAccepted = "accepted"
	StateReverted = "reverted"
)

// TurnChanges is the "Changes" view of one turn: every file it changed, from the checkpoint
// before it (From) to the one at its end (To), with each hunk's review state.
type TurnChanges struct {
	TurnID  string        `json:"turnId"`
	From    int64         `json:"from"`
	To      int64         `json:"to"`
	Running bool          `json:"running,omitempty"`
	Files   []FileChanges `json:"files"`
}

// FileChanges is one file of a turn's change and what the person made of it.
type FileChanges struct {
	FileDiff
	// State is the file's own verdict (accepted or reverted whole), else pending.
	State string `json:"state"`
	// HunkStates is each hunk's verdict, by index.
	HunkStates []string `json:"hunkStates"`
	// Reasons the person gave, newest last.
	Reasons []string `json:"reasons,omitempty"`
}

// Changes reads a turn's changes. A turn still running shows its changes so far.
func (s *Service) Changes(sessionID, turnID string) (TurnChanges, error) {
	if s.Checkpoints == nil {
		return TurnChanges{}, errs.New(Unavailable)
	}
	from, to, err := s.turnRange(sessionID, turnID)
	if err != nil {
		return TurnChanges{}, err
	}
	out := TurnChanges{TurnID: turnID, From: from.ID, To: to.ID, Files: []FileChanges{}}
	out.Running = to.Reason != checkpoint.ReasonTurnEnd
	changes, err := s.Checkpoints.Diff(from.ID, to.ID)
	if err != nil {
		return TurnChanges{}, err
	}
	verdicts, err := s.verdicts(sessionID, turnID)
	if err != nil {
		return TurnChanges{}, err
	}
	for _, ch := range changes {
		d, err := s.fileDiff(from.ID, to.ID, ch)
		if err != nil {
			return TurnChanges{}, err
		}
		out.Files = append(out.Files, verdicts.of(d))
	}
	return out, nil
}

// turnRange is the checkpoint before the turn and its last one (at its end, or the newest so far).
func (s *Service) turnRange(sessionID, turnID string) (checkpoint.Checkpoint, checkpoint.Checkpoint, error) {
	list, err := s.Checkpoints.List(sessionID)
	if err != nil {
		return checkpoint.Checkpoint{}, checkpoint.Checkpoint{}, err
	}
	var from, to checkpoint.Checkpoint
	for _, c := range list {
		if c.TurnID != turnID {
			continue
		}
		if c.Reason == checkpoint.ReasonTurn && from.ID == 0 {
			from = c
		}
		to = c
	}
	if from.ID == 0 {
		return from, to, errs.New(errs.NotFound, "ID", turnID)
	}
	return from, to, nil
}

func (s *Service) fileDiff(from, to int64, ch checkpoint.Change) (FileDiff, error) {
	a, err := s.Checkpoints.FileAt(from, ch.Path)
	if err != nil {
		return FileDiff{}, err
	}
	b, err := s.Checkpoints.FileAt(to, ch.Path)
	if err != nil {
		return FileDiff{}, err
	}
	return diffOf(ch.Path, ch.Action, textOf(a), textOf(b)), nil
}

// verdicts folds the log's reviews of one turn: per file, its own verdict and its hunks'.
type verdicts map[string]*fileVerdict

type fileVerdict struct {
	state   string
	hunks   map[int]string
	reasons []string
}

func (s *Service) verdicts(sessionID, turnID string) (verdicts, error) {
	log, err := s.Store.Log(sessionID)
	if err != nil {
		return nil, err
	}
	out := verdicts{}
	for _, r := range log {
		m, ok := r.Payload.(eventlog.Review)
		if !ok || m.TurnID != turnID {
			continue
		}
		v := out[m.Path]
		if v == nil {
			v = &fileVerdict{hunks: map[int]string{}}
			out[m.Path] = v
		}
		state := StateAccepted
		if m.Action == eventlog.ReviewRevert {
			state = StateReverted
		}
		if len(m.Hunks) == 0 {
			v.state, v.hunks = state, map[int]string{}
		}
		for _, h := range m.Hunks {
			v.hunks[h] = state
		}
		if m.Reason != "" {
			v.reasons = append(v.reasons, m.Reason)
		}
	}
	return out, nil
}

func (v verdicts) of(d FileDiff) FileChanges {
	out := FileChanges{FileDiff: d, State: StatePending, HunkStates: make([]string, len(d.Hunks))}
	fv := v[d.Path]
	for i := range out.HunkStates {
		out.HunkStates[i] = StatePending
		if fv == nil {
			continue
		}
		if fv.state != "" {
			out.HunkStates[i] = fv.state
		}
		if st, ok := fv.hunks[i]; ok {
			out.HunkStates[i] = st
		}
	}
	if fv != nil {
		out.Reasons = fv.reasons
		if fv.state != "" {
			out.State = fv.state
		}
	}
	return out
}

// ReviewRequest is the person's verdict on a turn's change to a file: accept or revert, all of
// it (Hunks empty) or the hunks named, with a reason for the model.
type ReviewRequest struct {
	SessionID string
	TurnID    string
	Path      string
	Action    string
	Hunks     []int
	Reason    string
}

// Apply records a verdict; a revert first puts the file (or the hunks) back as they were
// before the turn, on the file as it is now, between two checkpoints.
func (s *Service) Apply(req ReviewRequest) (eventlog.Review, error) {
	if req.Action != eventlog.ReviewAccept && req.Action != eventlog.ReviewRevert {
		return eventlog.Review{}, errs.Invalid("action", req.Action, []string{eventlog.ReviewAccept, eventlog.ReviewRevert})
	}
	if err := s.ready(req.SessionID); err != nil {
		return eventlog.Review{}, err
	}
	from, to, err := s.turnRange(req.SessionID, req.TurnID)
	if err != nil {
		return eventlog.Review{}, err
	}
	changes, err := s.Checkpoints.Diff(from.ID, to.ID)
	if err != nil {
		return eventlog.Review{}, err
	}
	i := slices.IndexFunc(changes, func(c checkpoint.Change) bool { return c.Path == req.Path })
	if i < 0 {
		return eventlog.Review{}, errs.New(errs.NotFound, "ID", req.Path)
	}
	d, err := s.fileDiff(from.ID, to.ID, changes[i])
	if err != nil {
		return eventlog.Review{}, err
	}
	ev := eventlog.Review{TurnID: req.TurnID, Path: req.Path, Action: req.Action, Hunks: slices.Clone(req.Hunks),
		Reason: cleanReason(req.Reason)}
	slices.Sort(ev.Hunks)
	ev.Hunks = slices.Compact(ev.Hunks)
	if len(ev.Hunks) > 0 && d.Omitted != "" {
		return eventlog.Review{}, errs.New(NotText, "Path", req.Path)
	}
	if req.Action == eventlog.ReviewRevert {
		if err := s.revert(req, from, d, &ev); err != nil {
			return eventlog.Review{}, err
		}
	}
	if err := s.record(req.SessionID, ev); err != nil {
		return eventlog.Review{}, err
	}
	s.publish(EventReviewed, ReviewDone{SessionID: req.SessionID, TurnID: req.TurnID, Path: req.Path})
	return ev, nil
}

// revert undoes the chosen hunks on the file as it is now, or puts the whole file back as the
// checkpoint before the turn had it (deleting it when the turn created it: the Changes view
// listed it as created).
func (s *Service) revert(req ReviewRequest, from checkpoint.Checkpoint, d FileDiff, ev *eventlog.Review) error {
	cpReq := checkpoint.Request{SessionID: req.SessionID, TurnID: "", Workspace: from.Workspace,
		Detail: "review:" + req.TurnID}
	all := make([]int, len(d.Hunks))
	for i := range all {
		all[i] = i
	}
	if len(ev.Hunks) == 0 {
		ev.Patch = hunk.Patch(d.Path, d.Hunks, all)
		done, err := s.Checkpoints.Restore(from.ID, cpReq, checkpoint.RestoreOptions{Paths: []string{d.Path},
			ConfirmDeletes: true, Seen: []string{d.Path}})
		ev.UndoID, ev.ResultID = done.Undo.ID, done.Result.ID
		return err
	}
	ev.Patch = hunk.Patch(d.Path, d.Hunks, ev.Hunks)
	done, err := s.Checkpoints.Rewrite(cpReq, d.Path, func(cur []byte, exists bool) ([]byte, error) {
		if !exists {
			return nil, errs.New(hunk.Conflict, "Hunk", ev.Hunks[0]+1)
		}
		out, err := hunk.Apply(string(cur), d.Hunks, ev.Hunks, true)
		return []byte(out), err
	})
	ev.UndoID, ev.ResultID = done.Undo.ID, done.Result.ID
	return err
}
