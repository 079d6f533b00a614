package agent

import (
	"os"

	"agentdesk/backend/errs"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/session"
	"agentdesk/backend/worktree"
)

// taskGit is what the sandbox needs to let git work in the session's own worktree, from the
// store's record (never from files in the worktree); nil for a session in the person's folder
// or one whose worktree was removed.
func (t *turn) taskGit() (*sandbox.TaskGit, error) {
	w, ok, err := t.rt.opts.Store.TaskWorktree(t.sessionID)
	if err != nil || !ok || w.Removed {
		return nil, err
	}
	return &sandbox.TaskGit{GitDir: w.GitDir, Common: w.Common, Branch: w.Branch}, nil
}

// settleTaskObjects moves the git objects a shell command wrote in the session's worktree into
// the repository, so the person's repository stays whole after every command.
func (t *turn) settleTaskObjects() error {
	w, ok, err := t.rt.opts.Store.TaskWorktree(t.sessionID)
	if err != nil || !ok || w.Removed {
		return err
	}
	return session.TaskOf(w).Migrate()
}

// worktreeHere refuses a turn of a session whose own worktree is gone (removed, or deleted by
// hand): it would run in a folder that is not there. Its header offers the restore.
func (t *turn) worktreeHere() error {
	w, ok, err := t.rt.opts.Store.TaskWorktree(t.sessionID)
	if err != nil || !ok {
		return err
	}
	if _, serr := os.Stat(w.Path); w.Removed || serr != nil {
		return errs.New(worktree.Gone, "Path", w.Path)
	}
	return nil
}
