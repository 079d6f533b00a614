package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"agentdesk/backend/session"
)

// The commands on a session that runs in a worktree of its own: apply its changes to the
// person's folder, merge its branch, remove the worktree (keeping unmerged work) and restore it.

func mergeFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.Bool("squash", false, c.T("cli.flag.squash"))
}

func runApply(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		got, err := svc.ApplyWorktree(context.Background(), args[0])
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(got)
			return nil
		}
		fmt.Fprintln(c.Stdout, c.T("cli.worktree.applied", "Written", len(got.Written), "Same", len(got.Same)))
		for _, p := range got.Conflicts {
			fmt.Fprintln(c.Stdout, "  "+c.T("cli.worktree.conflict", "Path", p))
		}
		return nil
	})
}

func runMerge(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		if err := svc.MergeWorktree(context.Background(), args[0], boolFlag(fs, "squash")); err != nil {
			return err
		}
		c.say(fs, map[string]string{"merged": args[0]}, "cli.worktree.merged")
		return nil
	})
}

func runRemoveWorktree(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		kept, err := svc.RemoveWorktree(context.Background(), args[0])
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(map[string]any{"removed": args[0], "kept": kept})
			return nil
		}
		if kept == nil {
			fmt.Fprintln(c.Stdout, c.T("cli.worktree.removedMerged"))
			return nil
		}
		fmt.Fprintln(c.Stdout, c.T("cli.worktree.removedKept", "Branch", kept.Branch, "Files", strings.Join(kept.Files, ", "), "ID", args[0]))
		return nil
	})
}

func runRestoreWorktree(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		if err := svc.RestoreWorktree(context.Background(), args[0]); err != nil {
			return err
		}
		c.say(fs, map[string]string{"restored": args[0]}, "cli.worktree.restored")
		return nil
	})
}

func runPruneWorktrees(c *Context, fs *flag.FlagSet, _ []string) int {
	return c.withSessions(func(svc *session.Service) error {
		got, err := svc.PruneWorktrees(context.Background())
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(got)
			return nil
		}
		fmt.Fprintln(c.Stdout, c.T("cli.worktree.pruned", "Count", len(got.Removed)))
		for _, id := range got.Removed {
			fmt.Fprintln(c.Stdout, "  - "+id)
		}
		for id, files := range got.Left {
			fmt.Fprintln(c.Stdout, "  "+c.T("cli.worktree.left", "ID", id, "Files", strings.Join(files, ", ")))
		}
		return nil
	})
}

// runHandOff moves a session between its worktree and the person's folder, whichever it is in.
func runHandOff(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		_, isolated, err := svc.Store.TaskWorktree(args[0])
		if err != nil {
			return err
		}
		if err := svc.HandOff(context.Background(), args[0], !isolated); err != nil {
			return err
		}
		v, err := svc.View(args[0])
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(v)
			return nil
		}
		fmt.Fprintln(c.Stdout, c.T("cli.worktree.handedOff", "Path", v.Workspace))
		return nil
	})
}

// say prints v as JSON with --json, else the message key.
func (c *Context) say(fs *flag.FlagSet, v any, key string) {
	if wantsJSON(fs) {
		c.printJSON(v)
		return
	}
	fmt.Fprintln(c.Stdout, c.T(key))
}
