package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"agentdesk/backend/errs"
	"agentdesk/backend/session"
	"agentdesk/backend/worktree"
)

// setUpWorktree runs a session just created with --worktree through its set-up, before anything
// else: the person's own worktree-setup setting, and with --setup the repository's proposal
// (said on stderr before it runs, as the window shows it before it is ticked). Each result is
// said on stderr and kept in the session's log; a failing set-up leaves the session usable.
func (c *Context) setUpWorktree(svc *session.Service, fs *flag.FlagSet, v session.View) error {
	if !boolFlag(fs, "worktree") {
		return nil
	}
	ticked := ""
	if boolFlag(fs, "setup") {
		if ticked = worktree.ProposedSetup(v.Workspace); ticked != "" {
			fmt.Fprintln(c.Stderr, c.T("cli.worktree.setupProposed", "Command", ticked))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	runs, err := svc.SetupWorktree(ctx, v.ID, ticked, nil)
	for _, r := range runs {
		key := "cli.worktree.setupDone"
		switch {
		case r.Error != "":
			fmt.Fprintln(c.Stderr, c.T("cli.worktree.setupNotRun", "Command", r.Command, "Why", c.msgs.Error(c.lang, errs.New(errs.Kind(r.Error)))))
			continue
		case r.Failed():
			key = "cli.worktree.setupFailed"
		}
		fmt.Fprintln(c.Stderr, c.T(key, "Command", r.Command, "Code", r.ExitCode))
		if r.Failed() && r.Output != "" {
			fmt.Fprintln(c.Stderr, r.Output)
		}
	}
	return err
}
