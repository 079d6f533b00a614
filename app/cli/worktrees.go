package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/session"
)

// The commands on a session that runs in a worktree of its own: apply its changes to the
// person's folder, merge its branch, remove the worktree (keeping unmerged work) and restore it.

func mergeFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.Bool("squash", false, c.T("cli.flag.squash"))
}

// fileFlags name one file of a task's changes and, optionally, some of its hunks.
func fileFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.String("file", "", c.T("cli.flag.worktreeFile"))
	fs.String("hunks", "", c.T("cli.flag.worktreeHunks"))
	fs.String("reason", "", c.T("cli.flag.discardReason"))
}

// hunksFlag reads --hunks "1,3" (numbered from 1, as the changes list shows them) as indexes.
func hunksFlag(fs *flag.FlagSet) ([]int, error) {
	out := []int{}
	text := fs.Lookup("hunks").Value.String()
	if text == "" {
		return out, nil
	}
	for _, part := range strings.Split(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, errs.Invalid("hunks", text, []string{"1,2,…"})
		}
		out = append(out, n-1)
	}
	return out, nil
}

func runChanges(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		got, err := svc.ReviewWorktree(context.Background(), args[0])
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(got)
			return nil
		}
		for _, f := range got.Files {
			fmt.Fprintln(c.Stdout, c.T("cli.worktree.file", "Path", f.Path, "Action", c.T("cli.worktree.action."+f.Action), "State", c.T("cli.worktree.state."+f.State)))
			for i, h := range f.Hunks {
				fmt.Fprintf(c.Stdout, "  %s  @@ -%d,%d +%d,%d @@\n", c.T("cli.worktree.hunk", "N", i+1, "State", c.T("cli.worktree.state."+f.HunkStates[i])),
					h.OldStart, h.OldLines, h.NewStart, h.NewLines)
			}
		}
		return nil
	})
}

func runDiscard(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		hunks, err := hunksFlag(fs)
		if err != nil {
			return err
		}
		path := fs.Lookup("file").Value.String()
		if path == "" {
			return errs.Invalid("file", "", []string{"PATH"})
		}
		if err := svc.DiscardWorktreeFile(context.Background(), args[0], path, hunks, fs.Lookup("reason").Value.String()); err != nil {
			return err
		}
		c.say(fs, map[string]string{"discarded": path}, "cli.worktree.discarded")
		return nil
	})
}

func runApply(c *Context, fs *flag.FlagSet, args []string) int {
	if fs.Lookup("file").Value.String() != "" {
		return runApplyFile(c, fs, args)
	}
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

// runApplyFile applies one file's hunks (all pending ones without --hunks).
func runApplyFile(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		hunks, err := hunksFlag(fs)
		if err != nil {
			return err
		}
		got, err := svc.ApplyWorktreeFile(context.Background(), args[0], fs.Lookup("file").Value.String(), hunks)
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(got)
			return nil
		}
		fmt.Fprintln(c.Stdout, c.T("cli.worktree.fileApplied", "Path", got.Path, "Count", len(got.Hunks), "State", c.T("cli.worktree.state."+got.State)))
		for _, i := range got.Conflicts {
			fmt.Fprintln(c.Stdout, "  "+c.T("cli.worktree.hunkConflict", "N", i+1))
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
