package session

import (
	"context"
	"log/slog"
)

// EventUnapplied tells the windows that a task's count of files not applied changed, so the
// sidebar's list of tasks in worktrees shows it.
const EventUnapplied = "worktree.unapplied"

// Unapplied is the payload of worktree.unapplied.
type Unapplied struct {
	SessionID string `json:"sessionId"`
	Files     int    `json:"files"` // files whose change has not reached the person
}

// CountUnapplied counts again the files of the session's worktree whose change reached neither
// the person's folder nor their branch (worktree.Task.Unmerged), records the count and, when it
// changed, publishes it. A removed worktree counts the files it kept; a session in the person's
// folder has nothing to count.
func (s *Service) CountUnapplied(ctx context.Context, id string) error {
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
	if err != nil || !changed || s.Publish == nil {
		return err
	}
	s.Publish(EventUnapplied, Unapplied{SessionID: id, Files: n})
	return nil
}

// Recount is CountUnapplied after something that succeeded (a turn, a worktree action): a
// count that fails leaves that done and the count as it was, so it is logged, not returned.
func (s *Service) Recount(ctx context.Context, id string) {
	if err := s.CountUnapplied(ctx, id); err != nil {
		slog.Warn("counting a task's files not applied", "session", id, "err", err)
	}
}
