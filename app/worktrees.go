package app

import (
	"context"
	"time"

	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// WorktreeView is where a session that runs in a worktree of its own has it, for its header:
// Isolated is false for a session in the person's folder.
type WorktreeView struct {
	Isolated bool   `json:"isolated"`
	Repo     string `json:"repo,omitempty"`
	Branch   string `json:"branch,omitempty"`
	Base     string `json:"base,omitempty"` // the commit it started from, abbreviated
	// Removed: the worktree is gone; Kept lists the files whose change was kept for a restore.
	Removed bool     `json:"removed,omitempty"`
	Kept    []string `json:"kept"`
	// Gone: the worktree's folder went away outside AgentDesk; a restore checks its branch out again.
	Gone bool `json:"gone,omitempty"`
}

// MergeWorktreeRequest merges a session's branch into the person's current branch.
type MergeWorktreeRequest struct {
	ID     string `json:"id"`
	Squash bool   `json:"squash,omitempty"`
}

// Worktree says where the session's own worktree is, if it has one.
func (f *Sessions) Worktree(req SessionRef) (WorktreeView, error) {
	w, ok, err := f.s.Store.TaskWorktree(req.ID)
	if err != nil {
		return WorktreeView{}, f.s.fail(err)
	}
	if !ok {
		return WorktreeView{Kept: []string{}}, nil
	}
	base := w.Base
	if len(base) > 7 {
		base = base[:7]
	}
	kept := w.KeptFiles
	if kept == nil {
		kept = []string{}
	}
	gone := !w.Removed && session.TaskOf(w).Missing()
	return WorktreeView{Isolated: true, Repo: w.Repo, Branch: w.Branch, Base: base, Removed: w.Removed, Kept: kept, Gone: gone}, nil
}

// ApplyWorktree writes the session's changes into the person's folder, never over what they
// changed there since: those files come back as conflicts.
func (f *Sessions) ApplyWorktree(req SessionRef) (worktree.Applied, error) {
	got, err := f.svc().ApplyWorktree(context.Background(), req.ID)
	if err != nil {
		return worktree.Applied{}, f.s.fail(err)
	}
	return got, nil
}

// WorktreeFileRequest names some hunks of one file a session's task changed; no hunks means
// the whole file.
type WorktreeFileRequest struct {
	ID    string `json:"id"`
	Path  string `json:"path"`
	Hunks []int  `json:"hunks"`
	// Reason, with a discard, reaches the model at the next turn.
	Reason string `json:"reason,omitempty"`
}

// ReviewWorktree is everything the session's task changed against its base, hunk by hunk, each
// judged against the person's folder as it is now.
func (f *Sessions) ReviewWorktree(req SessionRef) (worktree.TaskChanges, error) {
	got, err := f.svc().ReviewWorktree(context.Background(), req.ID)
	if err != nil {
		return worktree.TaskChanges{}, f.s.fail(err)
	}
	return got, nil
}

// ApplyWorktreeFile writes some hunks of one file into the person's folder, each only where
// the person's file still holds the lines it replaces.
func (f *Sessions) ApplyWorktreeFile(req WorktreeFileRequest) (worktree.FileApplied, error) {
	got, err := f.svc().ApplyWorktreeFile(context.Background(), req.ID, req.Path, req.Hunks)
	if err != nil {
		return worktree.FileApplied{}, f.s.fail(err)
	}
	return got, nil
}

// DiscardWorktreeFile undoes some hunks of one file in the task's own worktree, and says what
// the task's changes are now.
func (f *Sessions) DiscardWorktreeFile(req WorktreeFileRequest) (worktree.TaskChanges, error) {
	if err := f.svc().DiscardWorktreeFile(context.Background(), req.ID, req.Path, req.Hunks, req.Reason); err != nil {
		return worktree.TaskChanges{}, f.s.fail(err)
	}
	return f.ReviewWorktree(SessionRef{ID: req.ID})
}

// MergeWorktree merges (or squashes) the session's branch into the person's current branch.
func (f *Sessions) MergeWorktree(req MergeWorktreeRequest) (WorktreeView, error) {
	if err := f.svc().MergeWorktree(context.Background(), req.ID, req.Squash); err != nil {
		return WorktreeView{}, f.s.fail(err)
	}
	return f.Worktree(SessionRef{ID: req.ID})
}

// RemoveWorktree takes the session's worktree away, keeping what had not reached the person.
func (f *Sessions) RemoveWorktree(req SessionRef) (WorktreeView, error) {
	if _, err := f.svc().RemoveWorktree(context.Background(), req.ID); err != nil {
		return WorktreeView{}, f.s.fail(err)
	}
	return f.Worktree(req)
}

// RestoreWorktree brings back a removed worktree with the work it kept.
func (f *Sessions) RestoreWorktree(req SessionRef) (WorktreeView, error) {
	if err := f.svc().RestoreWorktree(context.Background(), req.ID); err != nil {
		return WorktreeView{}, f.s.fail(err)
	}
	return f.Worktree(req)
}

// WorkspaceRequest names a folder.
type WorkspaceRequest struct {
	Workspace string `json:"workspace"`
}

// SuggestIsolation says whether a new task in the folder should default to a worktree of its
// own: the folder is in a repository where another task is running (or the setting says always).
func (f *Sessions) SuggestIsolation(req WorkspaceRequest) (session.Suggestion, error) {
	got, err := f.svc().SuggestIsolation(context.Background(), req.Workspace)
	if err != nil {
		return session.Suggestion{}, f.s.fail(err)
	}
	return got, nil
}

// HandOff moves the session between its own worktree and the person's folder, whichever it is
// in now (session.Service.HandOff); the session's new folder is published to every window.
func (f *Sessions) HandOff(req SessionRef) (Session, error) {
	w, _, err := f.s.Store.TaskWorktree(req.ID)
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	if err := f.svc().HandOff(context.Background(), req.ID, w.SessionID == ""); err != nil {
		return Session{}, f.s.fail(err)
	}
	return f.changed(f.svc().View(req.ID))
}

// WorktreeTask is a task that runs in a worktree of its own, as the sidebar lists it under its
// repository: its live state as the session list has it, and how many files hold a change that
// has not reached the person (Unapplied).
type WorktreeTask struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Branch    string    `json:"branch"`
	Unapplied int       `json:"unapplied"`
	Running   bool      `json:"running"`
	Waiting   int       `json:"waiting"`
	StateSeq  uint64    `json:"stateSeq"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// WorktreeRepo is a repository (the person's work tree) and its tasks in worktrees, most
// recently active first.
type WorktreeRepo struct {
	Repo  string         `json:"repo"`
	Tasks []WorktreeTask `json:"tasks"`
}

// ListWorktreeTasks lists the tasks whose worktree is still there, by repository. It reads the
// worktree records only; the session list and its pages are not touched.
func (f *Sessions) ListWorktreeTasks() ([]WorktreeRepo, error) {
	rows, err := f.s.Store.WorktreeTasks()
	if err != nil {
		return nil, f.s.fail(err)
	}
	out := []WorktreeRepo{}
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Repo != r.Repo {
			out = append(out, WorktreeRepo{Repo: r.Repo, Tasks: []WorktreeTask{}})
		}
		last := &out[len(out)-1]
		last.Tasks = append(last.Tasks, f.worktreeTask(r))
	}
	return out, nil
}

// worktreeTask is a row with the live state the session list shows; a turn another process runs
// (the command line) is running too, though no event of this one said so.
func (f *Sessions) worktreeTask(r store.WorktreeTask) WorktreeTask {
	st := f.s.states.get(r.SessionID)
	return WorktreeTask{ID: r.SessionID, Title: r.Title, Branch: r.Branch, Unapplied: r.Unapplied,
		Running: st.Running || r.RunningTurn != "", Waiting: st.Waiting, StateSeq: st.Seq, UpdatedAt: r.UpdatedAt}
}
