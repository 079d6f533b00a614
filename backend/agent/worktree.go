package agent

import (
	"os"
	"sync"

	"agentdesk/backend/errs"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// taskRecord is the session's worktree record, read once per turn: the gate asks for it at
// every shell command, and a session's worktree does not move while one of its turns runs
// (removal and handoff are refused then). It is read from the gate's goroutines too, hence once.
type taskRecord struct {
	once sync.Once
	w    store.TaskWorktree
	ok   bool // the session runs in a worktree of its own that is still there
	err  error
}

func (t *turn) taskWorktree() (store.TaskWorktree, bool, error) {
	r := &t.taskRec
	r.once.Do(func() {
		w, ok, err := t.rt.opts.Store.TaskWorktree(t.sessionID)
		r.w, r.ok, r.err = w, ok && !w.Removed, err
	})
	return r.w, r.ok, r.err
}

// taskGit is what the sandbox needs to let git work in the session's own worktree, from the
// store's record (never from files in the worktree); nil for a session in the person's folder
// or one whose worktree was removed.
func (t *turn) taskGit() (*sandbox.TaskGit, error) {
	w, ok, err := t.taskWorktree()
	if err != nil || !ok {
		return nil, err
	}
	return &sandbox.TaskGit{GitDir: w.GitDir, Common: w.Common, Branch: w.Branch}, nil
}

// settleTaskObjects moves the git objects a shell command wrote in the session's worktree into
// the repository, so the person's repository stays whole after every command.
func (t *turn) settleTaskObjects() error {
	w, ok, err := t.taskWorktree()
	if err != nil || !ok {
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

// countUnapplied counts again, once a turn in the session's own worktree has ended, the files
// whose change has not reached the person, for the sidebar. It runs before the next turn starts,
// so it reads the worktree at rest; once Shutdown has begun it is left to the next turn's end.
func (r *Runtime) countUnapplied(t *turn) {
	if _, ok, err := t.taskWorktree(); err != nil || !ok || r.base.Err() != nil {
		return
	}
	svc := session.Service{Store: r.opts.Store, Publish: r.opts.Publish}
	svc.Recount(r.base, t.sessionID)
}
