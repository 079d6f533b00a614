package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"agentdesk/app"
	"agentdesk/backend/errs"
	"agentdesk/backend/mcp"
	"agentdesk/backend/store"
)

// runMCP is `agentdesk mcp`: the MCP servers of every workspace (the default) or of one
// (--workspace). A stdio server's command line follows "--", so its own flags stay its own.
func runMCP(c *Context, args []string) int {
	head, command := splitCommand(args)
	add := func(c *Context, fs *flag.FlagSet, pos []string) int { return runMCPAdd(c, fs, pos, command) }
	return runGroup(c, "mcp", []subcommand{
		{name: "add", args: []string{"NAME"}, flags: mcpAddFlags, run: add},
		{name: "list", flags: mcpFlags, run: runMCPList},
		{name: "remove", args: []string{"NAME"}, flags: mcpFlags, run: runMCPRemove},
		{name: "enable", args: []string{"NAME"}, flags: mcpFlags, run: runMCPEnable},
		{name: "disable", args: []string{"NAME"}, flags: mcpFlags, run: runMCPDisable},
		{name: "approve", args: []string{"NAME", "TOOL"}, flags: mcpFlags, run: runMCPApprove},
		{name: "import", flags: mcpImportFlags, run: runMCPImport},
		{name: "log", args: []string{"NAME"}, flags: mcpFlags, run: runMCPLog},
		{name: "allow", args: []string{"RULE"}, flags: jsonFlag, run: runMCPRule("allow")},
		{name: "deny", args: []string{"RULE"}, flags: jsonFlag, run: runMCPRule("deny")},
	}, head)
}

// splitCommand cuts args at the first "--": what follows is a stdio server's command line.
func splitCommand(args []string) (head, command []string) {
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

func mcpFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.String("workspace", "", c.T("cli.flag.mcpWorkspace"))
}

func mcpAddFlags(c *Context, fs *flag.FlagSet) {
	mcpFlags(c, fs)
	fs.String("url", "", c.T("cli.flag.mcpURL"))
	fs.Var(&listFlag{}, "header", c.T("cli.flag.mcpHeader"))
	fs.Var(&listFlag{}, "env", c.T("cli.flag.mcpEnv"))
	fs.Bool("network", false, c.T("cli.flag.mcpNetwork"))
}

func mcpImportFlags(c *Context, fs *flag.FlagSet) {
	mcpFlags(c, fs)
	fs.Bool("yes", false, c.T("cli.flag.mcpYes"))
}

// listFlag collects a flag given several times.
type listFlag struct{ values []string }

func (l *listFlag) String() string     { return strings.Join(l.values, ",") }
func (l *listFlag) Set(v string) error { l.values = append(l.values, v); return nil }

func listValues(fs *flag.FlagSet, name string) []string {
	return fs.Lookup(name).Value.(*listFlag).values
}

// scope is the workspace the flags name, absolute; "" for every workspace.
func scope(fs *flag.FlagSet) string {
	if ws := fs.Lookup("workspace").Value.String(); ws != "" {
		return absPath(ws)
	}
	return ""
}

// withMCP opens the store and an MCP host over it, and stops every server afterwards.
func (c *Context) withMCP(fn func(h *mcp.Host, st *store.Store) error) int {
	return c.withStore(func(st *store.Store) error {
		h := mcp.NewHost(st, mcp.Options{DataDir: c.DataDir, Getenv: c.Getenv, LogDir: mcp.LogDir(c.DataDir), Version: Version})
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
			defer cancel()
			if err := h.Close(ctx); err != nil {
				fmt.Fprintln(c.Stderr, err)
			}
		}()
		return fn(h, st)
	})
}

func runMCPAdd(c *Context, fs *flag.FlagSet, pos, command []string) int {
	cfg, err := addConfig(fs, pos[0], command)
	if err != nil {
		return c.exitFor(err)
	}
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		v, err := h.Add(cfg, "cli")
		if err != nil {
			return err
		}
		if v, err = h.Enable(context.Background(), v.ID, ""); err != nil {
			fmt.Fprintln(c.Stderr, c.T("cli.mcp.addedOff", "Name", cfg.Name))
			return err
		}
		c.printServer(fs, v)
		return nil
	})
}

// addConfig reads `mcp add`: --url for an http server, else the command line after "--".
func addConfig(fs *flag.FlagSet, name string, command []string) (mcp.Config, error) {
	cfg := mcp.Config{Name: name, Workspace: scope(fs), Transport: mcp.Stdio, Network: fs.Lookup("network").Value.String() == "true"}
	if u := fs.Lookup("url").Value.String(); u != "" {
		cfg.Transport, cfg.URL = mcp.HTTP, u
	}
	if len(command) > 0 {
		cfg.Command, cfg.Args = command[0], command[1:]
	}
	var err error
	if cfg.Env, err = pairs(listValues(fs, "env"), "=", "env"); err != nil {
		return cfg, err
	}
	cfg.Headers, err = pairs(listValues(fs, "header"), ":", "header")
	return cfg, err
}

// pairs reads NAME=VALUE (or Name: value) entries.
func pairs(list []string, sep, field string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, sep)
		if !ok || strings.TrimSpace(k) == "" {
			return nil, errs.Invalid(field, kv, []string{"NAME" + sep + "VALUE"})
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

func runMCPList(c *Context, fs *flag.FlagSet, _ []string) int {
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		list, err := h.List(scope(fs))
		if err != nil {
			return err
		}
		err = printList(c, fs, list, func(tw io.Writer, v mcp.ServerView) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.Name, c.scopeLabel(v.Workspace), v.Transport, c.onOff(v.Enabled), c.toolCounts(v))
		})
		if err != nil || wantsJSON(fs) {
			return err
		}
		for _, v := range list {
			c.printChanges(v)
		}
		return nil
	})
}

func (c *Context) scopeLabel(ws string) string {
	if ws == "" {
		return c.T("cli.mcp.global")
	}
	return ws
}

func (c *Context) onOff(on bool) string {
	if on {
		return c.T("cli.mcp.enabled")
	}
	return c.T("cli.mcp.disabled")
}

// toolCounts says how many tools are approved, and how many wait for the person.
func (c *Context) toolCounts(v mcp.ServerView) string {
	n := map[mcp.ToolState]int{}
	for _, t := range v.Tools {
		n[t.State]++
	}
	return c.T("cli.mcp.tools", "Approved", n[mcp.Approved], "Waiting", n[mcp.Changed]+n[mcp.New], "Off", n[mcp.Off])
}

// printChanges shows each tool that waits for approval, a changed one with its diff.
func (c *Context) printChanges(v mcp.ServerView) {
	for _, t := range v.Tools {
		switch t.State {
		case mcp.Changed:
			fmt.Fprintln(c.Stdout, "\n"+c.T("cli.mcp.changed", "Rule", t.Rule, "Name", v.Name, "Tool", t.Name))
			for _, l := range t.Diff {
				fmt.Fprintln(c.Stdout, l.Op+" "+l.Text)
			}
		case mcp.New:
			fmt.Fprintln(c.Stdout, "\n"+c.T("cli.mcp.new", "Rule", t.Rule, "Name", v.Name, "Tool", t.Name))
		}
	}
}

func (c *Context) printServer(fs *flag.FlagSet, v mcp.ServerView) {
	if wantsJSON(fs) {
		c.printJSON(v)
		return
	}
	var names []string
	for _, t := range v.Tools {
		names = append(names, t.Name)
	}
	fmt.Fprintln(c.Stdout, c.T("cli.mcp.pinned", "Name", v.Name, "Count", len(names), "Tools", strings.Join(names, ", ")))
}

// byName finds the server NAME of the flags' scope.
func byName(h *mcp.Host, fs *flag.FlagSet, name string) (mcp.ServerView, error) {
	return h.Find(scope(fs), name)
}

func runMCPRemove(c *Context, fs *flag.FlagSet, pos []string) int {
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		v, err := byName(h, fs, pos[0])
		if err != nil {
			return err
		}
		if err := h.Remove(v.ID); err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(map[string]string{"removed": v.ID, "name": v.Name})
		}
		return nil
	})
}

// runMCPEnable switches a server on: started once, every tool it lists now is pinned as the
// person's approval; tools that had changed since the last approval are shown with their diff.
func runMCPEnable(c *Context, fs *flag.FlagSet, pos []string) int {
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		before, err := byName(h, fs, pos[0])
		if err != nil {
			return err
		}
		v, err := h.Enable(context.Background(), before.ID, "")
		if err == nil {
			c.printServer(fs, v)
		}
		return err
	})
}

// runMCPLog prints the end of a server's log (its standard error), with the file's path.
func runMCPLog(c *Context, fs *flag.FlagSet, pos []string) int {
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		v, err := byName(h, fs, pos[0])
		if err != nil {
			return err
		}
		l, err := h.ReadLog(v.ID)
		if err != nil || wantsJSON(fs) {
			if err == nil {
				c.printJSON(l)
			}
			return err
		}
		fmt.Fprintln(c.Stderr, c.T("cli.mcp.log", "Path", l.Path))
		if l.Truncated {
			fmt.Fprintln(c.Stderr, c.T("cli.mcp.logTruncated", "KB", mcp.LogShown>>10))
		}
		fmt.Fprint(c.Stdout, l.Text)
		return nil
	})
}

func runMCPDisable(c *Context, fs *flag.FlagSet, pos []string) int {
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		v, err := byName(h, fs, pos[0])
		if err != nil {
			return err
		}
		if v, err = h.Disable(v.ID); err == nil && wantsJSON(fs) {
			c.printJSON(v)
		}
		return err
	})
}

// runMCPApprove approves one changed or new tool, as the list showed it.
func runMCPApprove(c *Context, fs *flag.FlagSet, pos []string) int {
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		v, err := byName(h, fs, pos[0])
		if err != nil {
			return err
		}
		for _, t := range v.Tools {
			if t.Name == pos[1] {
				v, err = h.Approve(v.ID, t.Name, t.Seen)
				if err == nil && wantsJSON(fs) {
					c.printJSON(v)
				}
				return err
			}
		}
		return errs.New(errs.NotFound, "ID", pos[1])
	})
}

// runMCPImport shows what the workspace's .mcp.json would add and imports it only once the
// person confirms: on the terminal, or with --yes.
func runMCPImport(c *Context, fs *flag.FlagSet, _ []string) int {
	ws := scope(fs)
	if ws == "" {
		return c.exitFor(errs.New(errs.MissingArgument, "Name", "--workspace"))
	}
	return c.withMCP(func(h *mcp.Host, _ *store.Store) error {
		items, err := h.Preview(ws)
		if err != nil {
			return err
		}
		names := c.showImport(items)
		if len(names) == 0 {
			return nil
		}
		if fs.Lookup("yes").Value.String() != "true" && !c.confirm(c.T("cli.mcp.importConfirm", "Count", len(names))) {
			return errs.New(mcp.ImportNotConfirmed, "Path", ws+"/"+mcp.ImportFile)
		}
		res, err := h.Import(context.Background(), ws, names)
		if err != nil {
			return err
		}
		return c.reportImport(fs, res)
	})
}

// showImport prints each server of the file and returns those that can be imported.
func (c *Context) showImport(items []mcp.ImportItem) []string {
	var names []string
	for _, it := range items {
		cfg := it.Config
		line := strings.TrimSpace(cfg.URL + " " + cfg.Command + " " + strings.Join(cfg.Args, " "))
		switch {
		case it.Problem != "":
			fmt.Fprintln(c.Stderr, c.T("cli.mcp.importSkip", "Name", cfg.Name, "Problem", it.Problem))
		case it.Exists:
			fmt.Fprintln(c.Stderr, c.T("cli.mcp.importExists", "Name", cfg.Name))
		default:
			fmt.Fprintf(c.Stderr, "  %s (%s%s): %s\n", cfg.Name, cfg.Transport, c.networkNote(cfg), line)
			names = append(names, cfg.Name)
		}
	}
	if len(items) == 0 {
		fmt.Fprintln(c.Stderr, c.T("cli.mcp.importNone"))
	}
	return names
}

func (c *Context) networkNote(cfg mcp.Config) string {
	if cfg.Network {
		return ", " + c.T("cli.mcp.network")
	}
	return ""
}

// confirm asks a yes/no question on the terminal; without one the answer is no.
func (c *Context) confirm(question string) bool {
	if c.IsTerminal == nil || !c.IsTerminal() || c.Stdin == nil {
		return false
	}
	fmt.Fprintf(c.Stderr, "%s ", question)
	lines := bufio.NewScanner(c.Stdin)
	if !lines.Scan() {
		return false
	}
	a := strings.ToLower(strings.TrimSpace(lines.Text()))
	return a == "y" || a == "yes" || a == "是"
}

func (c *Context) reportImport(fs *flag.FlagSet, res []mcp.ImportResult) error {
	var failed error
	for _, r := range res {
		if r.Error != nil {
			c.errorf(r.Error)
			failed = r.Error
		} else if !wantsJSON(fs) {
			c.printServer(fs, *r.Server)
		}
	}
	if wantsJSON(fs) {
		var servers []mcp.ServerView
		for _, r := range res {
			if r.Server != nil {
				servers = append(servers, *r.Server)
			}
		}
		c.printJSON(servers)
	}
	return failed
}

func runMCPRule(effect string) func(c *Context, fs *flag.FlagSet, pos []string) int {
	return func(c *Context, fs *flag.FlagSet, pos []string) int {
		r, err := app.MCPRule(effect, pos[0])
		if err != nil {
			return c.exitFor(err)
		}
		return c.withStore(func(st *store.Store) error {
			row, err := st.AddRule(r, "cli")
			if err == nil && wantsJSON(fs) {
				c.printJSON(row)
			}
			return err
		})
	}
}
