package agent

import (
	"agentdesk/backend/sandbox"
	"agentdesk/backend/session"
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
