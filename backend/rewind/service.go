// Package rewind lets the person see and undo what the agent changed: restore a checkpoint's
// files, its conversation (a fork before its turn) or both, and review a turn's changes file by
// file and hunk by hunk, accepting or reverting each with a reason that reaches the model at the
// next turn. Every restore and every verdict is an event of the session's log; every write goes
// through the checkpoint store (os.Root at the workspace, a checkpoint before and after), so a
// restore or a revert can itself be undone.
package rewind

import (
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/hunk"
)

// Error kinds; their messages are "error.<kind>" in locales/.
const (
	// Busy: a turn runs in the session; its files move under a restore, so it waits.
	Busy errs.Kind = "CHECKPOINT_TURN_RUNNING"
	// Unavailable: this AgentDesk keeps no checkpoints (its checkpoint store did not open).
	Unavailable errs.Kind = "CHECKPOINTS_UNAVAILABLE"
	// NoTurn: the checkpoint belongs to no turn, so there is no conversation to go back to.
	NoTurn errs.Kind = "CHECKPOINT_WITHOUT_TURN"
	// NotText: a binary or too large file is reviewed whole, not hunk by hunk.
	NotText errs.Kind = "REVIEW_NOT_TEXT"
)

// Broadcast names (never log types).
const (
	EventRestored = "checkpoint.restore.done"
	EventReviewed = "review.done"
)

// RestoreDone is the payload of checkpoint.restore.done: the session restored, and the session
// the conversation continues in when it was restored ("" otherwise).
type RestoreDone struct {
	SessionID string `json:"sessionId"`
	ForkID    string `json:"forkId"`
}

// ReviewDone is the payload of review.done: the file of a turn whose change got a verdict.
type ReviewDone struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Path      string `json:"path"`
}

// maxReason bounds a reason, as the approval card does.
const maxReason = 2000

// previewCap bounds each side of a file shown in a diff; a bigger one is summed up.
const previewCap = 256 << 10

// Service reviews and restores the sessions of one store.
type Service struct {
	Store       Store
	Checkpoints *checkpoint.Store
	// Running reports a session whose turn runs.
	Running func(sessionID string) bool
	Publish func(name string, data any)
}

// ready refuses when there are no checkpoints or a turn runs in the session.
func (s *Service) ready(sessionID string) error {
	if s.Checkpoints == nil {
		return errs.New(Unavailable)
	}
	if _, err := s.Store.GetSession(sessionID); err != nil {
		return err
	}
	if s.Running != nil && s.Running(sessionID) {
		return errs.New(Busy)
	}
	return nil
}

// checkpointOf reads a checkpoint of the session; another session's is not found.
func (s *Service) checkpointOf(sessionID string, id int64) (checkpoint.Checkpoint, error) {
	c, err := s.Checkpoints.Get(id)
	if err == nil && c.SessionID != sessionID {
		return checkpoint.Checkpoint{}, errs.New(errs.NotFound, "ID", id)
	}
	return c, err
}

func (s *Service) record(sessionID string, e eventlog.Event) error {
	_, err := s.Store.AppendStep(sessionID, e)
	return err
}

func (s *Service) publish(name string, data any) {
	if s.Publish != nil {
		s.Publish(name, data)
	}
}

// Text is one side of a file shown in a diff: its content when it is text a person can read,
// else why it is left out ("binary", "too_large", "link", "large_file": recorded by hash only).
type Text struct {
	Content string
	Omitted string
	Exists  bool
}

func textOf(f checkpoint.File) Text {
	switch {
	case !f.Found:
		return Text{}
	case f.Entry.Mode&fs.ModeSymlink != 0:
		return Text{Exists: true, Omitted: "link", Content: f.Entry.Link}
	case f.Entry.Large:
		return Text{Exists: true, Omitted: "large_file"}
	}
	return bounded(f.Content)
}

func bounded(b []byte) Text {
	switch {
	case len(b) > previewCap:
		return Text{Exists: true, Omitted: "too_large"}
	case !hunk.IsText(b):
		return Text{Exists: true, Omitted: "binary"}
	}
	return Text{Exists: true, Content: string(b)}
}

// onDisk reads a file of the workspace as it is now, through os.Root.
func onDisk(workspace, rel string) Text {
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return Text{}
	}
	defer root.Close()
	info, err := root.Lstat(rel)
	if err != nil {
		return Text{}
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		link, _ := root.Readlink(rel)
		return Text{Exists: true, Omitted: "link", Content: link}
	}
	if !info.Mode().IsRegular() {
		return Text{Exists: true, Omitted: "binary"}
	}
	f, err := root.Open(rel)
	if err != nil {
		return Text{}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, previewCap+1))
	if err != nil {
		return Text{}
	}
	return bounded(b)
}

// cleanReason trims a reason and bounds it, never inside a character.
func cleanReason(r string) string {
	r = strings.TrimSpace(r)
	for len(r) > maxReason {
		_, size := utf8.DecodeLastRuneInString(r)
		r = r[:len(r)-size]
	}
	return r
}
