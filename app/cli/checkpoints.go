package cli

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/hunk"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
)

// runCheckpoints is `agentdesk checkpoints list|diff|restore --session ID`: the snapshots taken
// in a session, what changed since one, and restoring one (a preview unless --yes).
func runCheckpoints(c *Context, args []string) int {
	return runGroup(c, "checkpoints", []subcommand{
		{name: "list", flags: checkpointFlags, run: runCheckpointList},
		{name: "diff", args: []string{"CHECKPOINT"}, flags: diffFlags, run: runCheckpointDiff},
		{name: "restore", args: []string{"CHECKPOINT"}, flags: restoreFlags, run: runCheckpointRestore},
	}, args)
}

func checkpointFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.String("session", "", c.T("cli.checkpoints.flag.session"))
}

func diffFlags(c *Context, fs *flag.FlagSet) {
	checkpointFlags(c, fs)
	fs.Int64("to", 0, c.T("cli.checkpoints.flag.to"))
}

func restoreFlags(c *Context, fs *flag.FlagSet) {
	checkpointFlags(c, fs)
	fs.String("scope", eventlog.ScopeFiles, c.T("cli.checkpoints.flag.scope"))
	fs.Bool("yes", false, c.T("cli.checkpoints.flag.yes"))
}

// withReview opens the store and the checkpoint store and hands the review service to fn with
// the session named by --session.
func (c *Context) withReview(fs *flag.FlagSet, fn func(svc *rewind.Service, sessionID string) error) int {
	sessionID := fs.Lookup("session").Value.String()
	if sessionID == "" {
		return c.exitFor(errs.New(errs.MissingArgument, "Name", "--session"))
	}
	st, err := store.Open(c.DataDir)
	if err != nil {
		return c.exitFor(err)
	}
	defer st.Close()
	cps, err := rewind.Open(st, c.DataDir)
	if err != nil {
		return c.exitFor(err)
	}
	defer cps.Close()
	svc := &rewind.Service{Store: st, Checkpoints: cps, Running: func(id string) bool { return turnRunning(st, id) }}
	if _, err := st.GetSession(sessionID); err != nil {
		return c.exitFor(err)
	}
	if err := fn(svc, sessionID); err != nil {
		return c.exitFor(err)
	}
	return ExitOK
}

// turnRunning reads from the store whether any process runs a turn of the session now.
func turnRunning(st *store.Store, sessionID string) bool {
	turns, err := st.Turns(sessionID)
	if err != nil || len(turns) == 0 {
		return err != nil
	}
	return turns[len(turns)-1].Status == store.TurnRunning
}

func checkpointID(arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.Invalid("checkpoint", arg, []string{"a checkpoint id from `agentdesk checkpoints list`"})
	}
	return id, nil
}

func runCheckpointList(c *Context, fs *flag.FlagSet, _ []string) int {
	return c.withReview(fs, func(svc *rewind.Service, sessionID string) error {
		list, err := svc.List(sessionID)
		if err != nil {
			return err
		}
		return printList(c, fs, list, func(tw io.Writer, cp checkpoint.Checkpoint) {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", cp.ID, cp.CreatedAt.Local().Format("2006-01-02 15:04:05"),
				c.T("cli.checkpoints.reason."+cp.Reason), c.T("cli.checkpoints.files", "Count", cp.Files), cp.TurnID)
		})
	})
}

func runCheckpointDiff(c *Context, fs *flag.FlagSet, args []string) int {
	from, err := checkpointID(args[0])
	if err != nil {
		return c.exitFor(err)
	}
	to, _ := strconv.ParseInt(fs.Lookup("to").Value.String(), 10, 64)
	return c.withReview(fs, func(svc *rewind.Service, sessionID string) error {
		files, err := svc.Diff(sessionID, from, to)
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(files)
			return nil
		}
		c.printDiffs(files)
		return nil
	})
}

// printDiffs prints each file as a unified diff, or says why its content is not shown.
func (c *Context) printDiffs(files []rewind.FileDiff) {
	for _, f := range files {
		if f.Omitted != "" || len(f.Hunks) == 0 {
			fmt.Fprintln(c.Stdout, c.T("cli.checkpoints.omitted", "Path", f.Path, "Action", f.Action, "Why", f.Omitted))
			continue
		}
		all := make([]int, len(f.Hunks))
		for i := range all {
			all[i] = i
		}
		fmt.Fprint(c.Stdout, hunk.Patch(f.Path, f.Hunks, all))
	}
}

func runCheckpointRestore(c *Context, fs *flag.FlagSet, args []string) int {
	id, err := checkpointID(args[0])
	if err != nil {
		return c.exitFor(err)
	}
	scope := fs.Lookup("scope").Value.String()
	yes := fs.Lookup("yes").Value.String() == "true"
	return c.withReview(fs, func(svc *rewind.Service, sessionID string) error {
		p, err := svc.Preview(rewind.PreviewRequest{SessionID: sessionID, CheckpointID: id, Scope: scope})
		if err != nil {
			return err
		}
		if !yes {
			c.printPreview(fs, p)
			return nil
		}
		done, err := svc.Restore(rewind.RestoreRequest{SessionID: sessionID, CheckpointID: id, Scope: scope, Deletes: p.Deletes})
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(done)
			return nil
		}
		fmt.Fprintln(c.Stdout, c.T("cli.checkpoints.restored", "ID", id, "Count", len(done.Event.Changed), "Undo", done.Event.UndoID))
		if done.Fork != nil {
			fmt.Fprintln(c.Stdout, c.T("cli.checkpoints.forked", "ID", done.Fork.ID))
		}
		return nil
	})
}

// printPreview shows what a restore would do, and how to confirm it.
func (c *Context) printPreview(fs *flag.FlagSet, p rewind.Preview) {
	if wantsJSON(fs) {
		c.printJSON(p)
		return
	}
	if p.TurnID != "" {
		fmt.Fprintln(c.Stdout, c.T("cli.checkpoints.forkBefore", "Prompt", p.Prompt))
	}
	for _, f := range p.Files {
		key := "cli.checkpoints.change." + f.Action
		if f.Unrestorable {
			key = "cli.checkpoints.unrestorable"
		}
		fmt.Fprintln(c.Stdout, c.T(key, "Path", f.Path))
	}
	fmt.Fprintln(c.Stdout)
	c.printDiffs(p.Files)
	fmt.Fprintln(c.Stdout, c.T("cli.checkpoints.confirm"))
}
