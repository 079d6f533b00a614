package session

import (
	"context"
	"log/slog"
)

// EventWorktreeChanged tells the windows that a task's worktree changed in what the sidebar shows
// of it: its count of files not applied, or whether it is still there.
const EventWorktreeChanged = "worktree.changed"

// WorktreeChanged is the payload of worktree.changed.
type WorktreeChanged struct {
	SessionID string `json:"sessionId"`
	Unapplied int    `json:"unapplied"` // files whose change has not reached the person
	Removed   bool   `json:"removed"`   // the worktree is gone (its work kept)
}

// CountUnapplied counts again the files of the session's worktree whose change reached neither
// the person's folder nor their branch (worktree.Task.Unmerged), records the count and, when it
// changed, publishes it. A removed worktree counts the files it kept; a session in the person's
// folder has nothing to count.
func (s *Service) CountUnapplied(ctx context.Context, id string) error {
	return s.count(ctx, id, false)
}

// count is CountUnapplied; tell publishes even an unchanged count, for a worktree that was just
// removed or restored.
func (s *Service) count(ctx context.Context, id string, tell bool) error {
	w, ok, err := s.Store.TaskWorktree(id)
	if err != nil || !ok {
		return err
	}
	n := len(w.KeptFiles)
	if !w.Removed {
		files, err := TaskOf(w).Unmerged(ctx)
		if err != nil {
			return err
		}
		n = len(files)
	}
	changed, err := s.Store.SetUnapplied(id, n)
	if err != nil || !(changed || tell) || s.Publish == nil {
		return err
	}
	s.Publish(EventWorktreeChanged, WorktreeChanged{SessionID: id, Unapplied: n, Removed: w.Removed})
	return nil
}

// Recount is CountUnapplied after something that succeeded (a turn, a worktree action): a
// count that fails leaves that done and the count as it was, so it is logged, not returned.
func (s *Service) Recount(ctx context.Context, id string) { s.recount(ctx, id, false) }

func (s *Service) recount(ctx context.Context, id string, tell bool) {
	if err := s.count(ctx, id, tell); err != nil {
		slog.Warn("counting a task's files not applied", "session", id, "err", err)
	}
}
