package session

import (
	"context"
	"slices"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// NotIsolated refuses a worktree action on a session that runs in the person's own folder.
const NotIsolated errs.Kind = "SESSION_NOT_IN_WORKTREE"

// NothingKept refuses restoring a task whose worktree was removed with all its work merged.
const NothingKept errs.Kind = "WORKTREE_NOTHING_KEPT"

// TaskOf is a recorded worktree as the worktree package works on it.
func TaskOf(w store.TaskWorktree) worktree.Task {
	return worktree.Task{ID: w.SessionID, Repo: w.Repo, Common: w.Common, Path: w.Path, GitDir: w.GitDir, Branch: w.Branch, Base: w.Base}
}

// task is the session's worktree, present (not removed) unless removed is allowed.
func (s *Service) task(id string, removed bool) (store.TaskWorktree, error) {
	w, ok, err := s.Store.TaskWorktree(id)
	switch {
	case err != nil:
		return w, err
	case !ok:
		return w, errs.New(NotIsolated, "ID", id)
	case w.Removed && !removed:
		return w, errs.New(worktree.Gone, "Path", w.Path)
	}
	return w, nil
}

// ApplyWorktree writes the session's changes into the person's folder (worktree.Apply).
func (s *Service) ApplyWorktree(ctx context.Context, id string) (worktree.Applied, error) {
	w, err := s.task(id, false)
	if err != nil {
		return worktree.Applied{}, err
	}
	applied, err := worktree.Apply(ctx, TaskOf(w))
	if err == nil {
		s.Recount(ctx, id)
	}
	return applied, err
}

// ReviewWorktree is everything the session's task changed against its base, hunk by hunk, each
// judged against the person's folder as it is now (worktree.Task.Review).
func (s *Service) ReviewWorktree(ctx context.Context, id string) (worktree.TaskChanges, error) {
	w, err := s.task(id, false)
	if err != nil {
		return worktree.TaskChanges{}, err
	}
	return TaskOf(w).Review(ctx)
}

// ApplyWorktreeFile writes some hunks (all pending ones when hunks is empty) of one file the
// task changed into the person's folder (worktree.ApplyFile).
func (s *Service) ApplyWorktreeFile(ctx context.Context, id, path string, hunks []int) (worktree.FileApplied, error) {
	w, err := s.task(id, false)
	if err != nil {
		return worktree.FileApplied{}, err
	}
	got, err := worktree.ApplyFile(ctx, TaskOf(w), path, hunks)
	if err == nil && got.Written {
		s.Recount(ctx, id)
	}
	return got, err
}

// DiscardWorktreeFile undoes some hunks (the whole change when hunks is empty) of one file in
// the task's own worktree. The agent may be writing there, so a running turn is refused. The
// session's log records it with the person's reason, so the model reads at its next turn what was
// taken back and why, as it does for a turn's reverted change.
func (s *Service) DiscardWorktreeFile(ctx context.Context, id, path string, hunks []int, reason string) error {
	if err := s.refuseRunning(id); err != nil {
		return err
	}
	w, err := s.task(id, false)
	if err != nil {
		return err
	}
	patch, err := worktree.DiscardFile(ctx, TaskOf(w), path, hunks)
	if err != nil {
		return err
	}
	ev := eventlog.Review{Worktree: true, Path: path, Action: eventlog.ReviewRevert, Hunks: slices.Clone(hunks), Reason: strings.TrimSpace(reason), Patch: patch}
	if _, err := s.Store.AppendStep(id, ev); err != nil {
		return err
	}
	if s.Publish != nil {
		s.Publish(rewind.EventReviewed, rewind.ReviewDone{SessionID: id, Path: path})
	}
	s.Recount(ctx, id)
	return nil
}

func (s *Service) refuseRunning(id string) error {
	sess, err := s.Store.GetSession(id)
	if err != nil {
		return err
	}
	if sess.RunningTurn != "" {
		return errs.New(Running, "ID", id)
	}
	return nil
}

// MergeWorktree merges (or squashes) the session's branch into the person's current branch,
// with the session's title as the message.
func (s *Service) MergeWorktree(ctx context.Context, id string, squash bool) error {
	w, err := s.task(id, false)
	if err != nil {
		return err
	}
	sess, err := s.Store.GetSession(id)
	if err != nil {
		return err
	}
	if err := worktree.Merge(ctx, TaskOf(w), squash, sess.Title); err != nil {
		return err
	}
	s.Recount(ctx, id)
	return nil
}

// RemoveWorktree takes the session's worktree away, keeping whatever did not reach the person;
// the record says what was kept, for the restore. It waits for no turn: one running is refused.
func (s *Service) RemoveWorktree(ctx context.Context, id string) (*worktree.Kept, error) {
	if err := s.refuseRunning(id); err != nil {
		return nil, err
	}
	return s.removeWorktree(ctx, id)
}

func (s *Service) removeWorktree(ctx context.Context, id string) (*worktree.Kept, error) {
	w, err := s.task(id, false)
	if err != nil {
		return nil, err
	}
	kept, err := worktree.Remove(ctx, TaskOf(w))
	if err != nil {
		return nil, err
	}
	w.Removed, w.KeptRef, w.KeptFiles = true, "", nil
	if kept != nil {
		w.KeptRef, w.KeptFiles = kept.Ref, kept.Files
	}
	if err := s.Store.SetTaskWorktree(w); err != nil {
		return kept, err
	}
	s.recount(ctx, id, true)
	return kept, nil
}

// RestoreWorktree brings back a removed worktree whose work was kept, as it was.
func (s *Service) RestoreWorktree(ctx context.Context, id string) error {
	w, err := s.task(id, true)
	if err != nil {
		return err
	}
	if !w.Removed {
		return s.recreate(ctx, w)
	}
	if w.KeptRef == "" {
		return errs.New(NothingKept, "ID", id)
	}
	if err := worktree.Restore(ctx, TaskOf(w), worktree.Kept{Branch: w.Branch, Ref: w.KeptRef, Files: w.KeptFiles}); err != nil {
		return err
	}
	w.Removed, w.KeptRef, w.KeptFiles = false, "", nil
	if err := s.Store.SetTaskWorktree(w); err != nil {
		return err
	}
	s.recount(ctx, id, true)
	return nil
}

// recreate checks a worktree out again whose folder went away outside AgentDesk; one that is
// there is left as it is.
func (s *Service) recreate(ctx context.Context, w store.TaskWorktree) error {
	t := TaskOf(w)
	if !t.Missing() {
		return nil
	}
	if err := worktree.Recreate(ctx, t); err != nil {
		return err
	}
	gitDir, err := worktree.GitDirOf(ctx, t.Path)
	if err != nil {
		return err
	}
	w.GitDir = gitDir
	return s.Store.SetTaskWorktree(w)
}

// Delete removes a session. A worktree of its own goes first, as RemoveWorktree takes it: what
// had not reached the person stays in their repository (the branch, and the kept ref).
func (s *Service) Delete(ctx context.Context, id string) error {
	if w, ok, err := s.Store.TaskWorktree(id); err != nil {
		return err
	} else if ok && !w.Removed {
		if _, err := s.removeWorktree(ctx, id); err != nil {
			return err
		}
	}
	return s.Store.DeleteSession(id)
}

// Pruned is what PruneWorktrees did: the sessions whose worktrees it removed (all their work
// had reached the person), and those it left, with the files that had not.
type Pruned struct {
	Removed []string            `json:"removed"`
	Left    map[string][]string `json:"left"`
}

// PruneWorktrees removes the worktrees whose work fully reached the person's folder or branch,
// judged by content, and leaves every other one as it is, saying which files hold it there. A
// worktree a turn is running in is not looked at.
func (s *Service) PruneWorktrees(ctx context.Context) (Pruned, error) {
	out := Pruned{Removed: []string{}, Left: map[string][]string{}}
	all, err := s.Store.TaskWorktrees("")
	if err != nil {
		return out, err
	}
	running, err := s.Store.RunningWorkspaces()
	if err != nil {
		return out, err
	}
	for _, w := range all {
		if w.Removed || slices.Contains(running, w.Path) {
			continue // gone already, or in use by a turn
		}
		unmerged, err := TaskOf(w).Unmerged(ctx)
		if err != nil {
			return out, err
		}
		if len(unmerged) > 0 {
			out.Left[w.SessionID] = unmerged
			continue
		}
		if _, err := s.RemoveWorktree(ctx, w.SessionID); err != nil {
			return out, err
		}
		out.Removed = append(out.Removed, w.SessionID)
	}
	return out, nil
}

// Isolation is when a new task runs in a worktree of its own (store.SettingIsolation).
type Isolation string

const (
	IsolateWhenBusy Isolation = "busy"
	IsolateAlways   Isolation = "always"
	IsolateNever    Isolation = "never"
)

// ParseIsolation reads the setting strictly.
func ParseIsolation(v string) (Isolation, error) {
	switch i := Isolation(v); i {
	case IsolateWhenBusy, IsolateAlways, IsolateNever:
		return i, nil
	}
	return "", errs.Invalid("worktree-isolation", v, []string{string(IsolateWhenBusy), string(IsolateAlways), string(IsolateNever)})
}

// Suggestion is whether a new task in a folder should run in a worktree of its own, and why.
type Suggestion struct {
	Repository bool      `json:"repository"` // the folder is in a git repository
	Busy       int       `json:"busy"`       // tasks running in that repository now
	Isolate    bool      `json:"isolate"`    // the default the composer should show
	Setting    Isolation `json:"setting"`
	// RepoSetup is the set-up command the repository proposes (worktree.ProposalFile), which the
	// composer offers to run for this task only, showing its text; "" for none.
	RepoSetup string `json:"repoSetup,omitempty"`
}

// SuggestIsolation says whether a new task in folder should default to its own worktree: in a
// repository, always or never as the setting says, or (the default) when another task is
// running in the same repository, in the person's folder or in a worktree of it.
func (s *Service) SuggestIsolation(ctx context.Context, folder string) (Suggestion, error) {
	setting := store.SettingOr(s.Store, store.SettingIsolation, ParseIsolation, IsolateWhenBusy)
	out := Suggestion{Setting: setting}
	common, ok := worktree.CommonOf(ctx, folder)
	if !ok {
		return out, nil
	}
	out.Repository = true
	if top, ok := worktree.TopOf(ctx, folder); ok {
		out.RepoSetup = worktree.ProposedSetup(top)
	}
	running, err := s.Store.RunningWorkspaces()
	if err != nil {
		return out, err
	}
	for _, ws := range running {
		if c, ok := worktree.CommonOf(ctx, ws); ok && c == common {
			out.Busy++
		}
	}
	out.Isolate = setting == IsolateAlways || setting == IsolateWhenBusy && out.Busy > 0
	return out, nil
}

// HandOffConflicts refuses moving a task to the person's folder while some of its changes would
// overwrite what the person changed there since.
const HandOffConflicts errs.Kind = "WORKTREE_HANDOFF_CONFLICTS"

// Running refuses moving a session between folders while one of its turns runs.
const Running errs.Kind = "SESSION_RUNNING"

// HandOff moves a session between its own worktree and the person's folder. Into the folder:
// its changes are applied there (refused, with the files, where the person changed them since),
// the worktree is removed (nothing is lost: what did not reach the person is kept) and the
// session goes on in the repository's folder. Into a worktree: one is made from the folder with
// its uncommitted changes carried, and the session goes on there.
func (s *Service) HandOff(ctx context.Context, id string, intoWorktree bool) error {
	sess, err := s.Store.GetSession(id)
	if err != nil {
		return err
	}
	if sess.RunningTurn != "" {
		return errs.New(Running, "ID", id)
	}
	if intoWorktree {
		if _, ok, err := s.Store.TaskWorktree(id); err != nil || ok {
			return err // already in one: nothing to move
		}
		if err := s.isolate(sess, true); err != nil {
			return err
		}
		s.Recount(ctx, id) // the changes it carried
		return nil
	}
	w, err := s.task(id, false)
	if err != nil {
		return err
	}
	applied, err := worktree.Apply(ctx, TaskOf(w))
	if err != nil {
		return err
	}
	if len(applied.Conflicts) > 0 {
		return errs.New(HandOffConflicts, "Files", strings.Join(applied.Conflicts, ", "))
	}
	if _, err := s.removeWorktree(ctx, id); err != nil {
		return err
	}
	return s.Store.LeaveWorktree(id, w.Repo)
}
