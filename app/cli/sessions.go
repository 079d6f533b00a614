package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// subcommand is one verb of a command group such as `sessions list`.
type subcommand struct {
	name string
	args []string
	run  func(c *Context, fs *flag.FlagSet, args []string) int
	// flags adds the verb's own flags and returns what run needs from them.
	flags func(c *Context, fs *flag.FlagSet)
}

func runGroup(c *Context, group string, verbs []subcommand, args []string) int {
	names := make([]string, len(verbs))
	for i, v := range verbs {
		names[i] = v.name
	}
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprintf(c.Stdout, "%s: agentdesk %s <%s>\n", c.T("cli.usage.usage"), group, joinNames(names))
		return ExitOK
	}
	for _, v := range verbs {
		if v.name != args[0] {
			continue
		}
		fs := c.flags(group + " " + v.name)
		if v.flags != nil {
			v.flags(c, fs)
		}
		pos, code, ok := c.parseArgs(fs, args[1:], v.args)
		if !ok {
			return code
		}
		return v.run(c, fs, pos)
	}
	c.errorf(errs.Invalid(group, args[0], names))
	return ExitUsage
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += "|"
		}
		out += n
	}
	return out
}

// withSessions opens the store and hands the session service to fn.
func (c *Context) withSessions(fn func(svc *session.Service) error) int {
	st, err := store.Open(c.DataDir)
	if err != nil {
		return c.exitFor(err)
	}
	defer st.Close()
	if d := st.Damage(); d != nil { // reads still work: say why writes will not
		fmt.Fprintln(c.Stderr, c.T("cli.readOnly", "Message", c.msgs.Error(c.lang, d)))
	}
	if err := fn(&session.Service{Store: st}); err != nil {
		return c.exitFor(err)
	}
	return ExitOK
}

func (c *Context) printJSON(v any) {
	enc := json.NewEncoder(c.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// printList prints list as JSON under --json, else one aligned row an item.
func printList[T any](c *Context, fs *flag.FlagSet, list []T, row func(w io.Writer, v T)) error {
	if wantsJSON(fs) {
		c.printJSON(list)
		return nil
	}
	tw := tabwriter.NewWriter(c.Stdout, 2, 4, 2, ' ', 0)
	for _, v := range list {
		row(tw, v)
	}
	return tw.Flush()
}

func jsonFlag(c *Context, fs *flag.FlagSet) { fs.Bool("json", false, c.T("cli.flag.json")) }

func wantsJSON(fs *flag.FlagSet) bool { return fs.Lookup("json").Value.String() == "true" }

func runSessions(c *Context, args []string) int {
	return runGroup(c, "sessions", []subcommand{
		{name: "create", flags: createFlags, run: runCreate},
		{name: "list", flags: listFlags, run: runList},
		{name: "show", args: []string{"ID"}, flags: jsonFlag, run: runShow},
		{name: "fork", args: []string{"ID"}, flags: forkFlags, run: runFork},
		{name: "delete", args: []string{"ID"}, flags: jsonFlag, run: runDelete},
		{name: "export", args: []string{"ID"}, run: runExport},
		{name: "import", args: []string{"FILE"}, flags: importFlags, run: runImport},
		{name: "changes", args: []string{"ID"}, flags: jsonFlag, run: runChanges},
		{name: "apply", args: []string{"ID"}, flags: fileFlags, run: runApply},
		{name: "discard", args: []string{"ID"}, flags: fileFlags, run: runDiscard},
		{name: "merge", args: []string{"ID"}, flags: mergeFlags, run: runMerge},
		{name: "remove-worktree", args: []string{"ID"}, flags: jsonFlag, run: runRemoveWorktree},
		{name: "restore-worktree", args: []string{"ID"}, flags: jsonFlag, run: runRestoreWorktree},
		{name: "prune-worktrees", flags: jsonFlag, run: runPruneWorktrees},
		{name: "handoff", args: []string{"ID"}, flags: jsonFlag, run: runHandOff},
	}, args)
}

func createFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.String("workspace", "", c.T("cli.flag.workspace"))
	fs.String("title", "", c.T("cli.flag.title"))
	fs.String("mode", "", c.T("cli.flag.mode"))
	fs.String("override", "", c.T("cli.flag.override"))
	fs.String("permission", "", c.T("cli.flag.permission"))
	fs.String("agent", "", c.T("cli.flag.agent"))
	fs.Bool("confirm-home", false, c.T("cli.flag.confirmHome"))
	fs.Bool("worktree", false, c.T("cli.flag.worktree"))
	fs.Bool("carry", false, c.T("cli.flag.carry"))
	fs.Bool("setup", false, c.T("cli.flag.setup"))
}

// isolation reads --worktree and --carry into a new session's input.
func isolation(fs *flag.FlagSet, in session.CreateInput) session.CreateInput {
	in.Isolated, in.Carry = boolFlag(fs, "worktree"), boolFlag(fs, "carry")
	return in
}

func boolFlag(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// importFlags are import's: the home folder as a file's workspace needs the person's word too.
func importFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.Bool("confirm-home", false, c.T("cli.flag.confirmHome"))
}

// workspaceArg is --workspace as the rule should see it. A relative path means the current
// folder of the shell it was typed in, as every command line tool reads it; "~" and "~/x" are
// left for workspace.Resolve to expand (a quoted or --flag=~ form reaches us unexpanded).
func workspaceArg(raw string) string {
	if raw == "~" || strings.HasPrefix(raw, "~") {
		return raw
	}
	return absPath(raw)
}

// confirmHome is --confirm-home.
func confirmHome(fs *flag.FlagSet) bool {
	f := fs.Lookup("confirm-home")
	return f != nil && f.Value.String() == "true"
}

// newSession creates a session, on the external agent named by --agent when given (it must
// be saved in Settings; Chat is refused for it).
func newSession(svc *session.Service, fs *flag.FlagSet, in session.CreateInput) (session.View, error) {
	if cmd := fs.Lookup("agent").Value.String(); cmd != "" {
		return client.CreateSession(svc, in, cmd)
	}
	return svc.Create(in)
}

// flagValue returns a flag's value when it was given on the command line, nil otherwise, so an
// omitted flag means "the session's preference" or "the default", never an empty value.
func flagValue(fs *flag.FlagSet, name string) *string {
	var out *string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			v := f.Value.String()
			out = &v
		}
	})
	return out
}

// modeInput turns --mode (which also takes the documented legacy aliases) and --override into
// the input every caller validates with mode.ValidateFollowUp.
func modeInput(fs *flag.FlagSet) (mode.FollowUpInput, error) {
	var in mode.FollowUpInput
	in.ExecutionOverride = flagValue(fs, "override")
	raw := flagValue(fs, "mode")
	if raw == nil {
		return in, nil
	}
	p, err := mode.ParseExecutionAlias(*raw)
	if err != nil {
		return in, err
	}
	interaction := string(p.Interaction)
	in.InteractionMode = &interaction
	if p.Override.IsSet() {
		implied := string(p.Override)
		if in.ExecutionOverride != nil && *in.ExecutionOverride != implied {
			return in, errs.Invalid("override", *in.ExecutionOverride, []string{implied})
		}
		in.ExecutionOverride = &implied
	}
	return in, nil
}

func runCreate(c *Context, fs *flag.FlagSet, _ []string) int {
	in, err := modeInput(fs)
	if err != nil {
		return c.exitFor(err)
	}
	workspace := fs.Lookup("workspace").Value.String()
	if workspace == "" {
		return c.exitFor(errs.New(errs.MissingArgument, "Name", "--workspace"))
	}
	title := fs.Lookup("title").Value.String()
	if title == "" {
		title = c.T("session.defaultTitle")
	}
	return c.withSessions(func(svc *session.Service) error {
		v, err := newSession(svc, fs, isolation(fs, session.CreateInput{Title: title, Workspace: workspaceArg(workspace), Mode: in,
			Permission: flagValue(fs, "permission"), ConfirmHome: confirmHome(fs)}))
		if err != nil {
			return err
		}
		c.printView(fs, v)
		return c.setUpWorktree(svc, fs, v)
	})
}

func listFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.Int("limit", defaultListLimit, c.T("cli.flag.limit"))
	fs.String("after", "", c.T("cli.flag.after"))
}

// defaultListLimit is how many sessions `sessions list` prints unless told: the most recent,
// as the window's sidebar shows first; a year of use holds 10,000, which --limit 0 prints.
const defaultListLimit = 100

// listPage is how many sessions `sessions list` reads at a time: the output starts at once and
// memory stays bounded however many sessions there are.
const listPage = 500

// runList prints the sessions, most recently active first: --limit of them (all with 0) after
// the cursor --after; when more remain, the cursor to continue with goes to stderr.
func runList(c *Context, fs *flag.FlagSet, _ []string) int {
	limit, _ := strconv.Atoi(fs.Lookup("limit").Value.String())
	if limit < 0 {
		return c.exitFor(errs.Invalid("limit", strconv.Itoa(limit), []string{"0…"}))
	}
	return c.withSessions(func(svc *session.Service) error {
		out := c.listPrinter(fs)
		after, left := fs.Lookup("after").Value.String(), limit
		for {
			n := listPage
			if limit > 0 {
				n = min(n, left)
			}
			page, err := svc.List(store.SessionRange{After: after, Limit: n})
			if err != nil {
				return err
			}
			for _, v := range page.Sessions {
				out.row(v)
			}
			left -= len(page.Sessions)
			after = page.Next
			if after == "" || limit > 0 && left == 0 {
				break
			}
		}
		if err := out.end(); err != nil {
			return err
		}
		if after != "" {
			fmt.Fprintln(c.Stderr, c.T("cli.sessions.more", "Cursor", after))
		}
		return nil
	})
}

// sessionPrinter writes a list a row at a time: a JSON array, or a table.
type sessionPrinter struct {
	row func(session.View)
	end func() error
}

func (c *Context) listPrinter(fs *flag.FlagSet) sessionPrinter {
	if wantsJSON(fs) {
		w := bufio.NewWriter(c.Stdout)
		sep := "[\n"
		return sessionPrinter{
			row: func(v session.View) {
				b, _ := json.MarshalIndent(v, "  ", "  ")
				w.WriteString(sep + "  ")
				w.Write(b)
				sep = ",\n"
			},
			end: func() error {
				if sep == "[\n" {
					w.WriteString("[]\n") // as json.Encoder writes an empty list
				} else {
					w.WriteString("\n]\n")
				}
				return w.Flush()
			},
		}
	}
	tw := tabwriter.NewWriter(c.Stdout, 2, 4, 2, ' ', 0)
	return sessionPrinter{
		row: func(v session.View) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.ID, c.modeLabel(v), v.PermissionMode, v.Title, v.Workspace)
		},
		end: tw.Flush,
	}
}

func runShow(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		v, err := svc.View(args[0])
		if err == nil {
			c.printView(fs, v)
		}
		return err
	})
}

func forkFlags(c *Context, fs *flag.FlagSet) {
	jsonFlag(c, fs)
	fs.Int64("before", 0, c.T("cli.flag.before"))
}

func runFork(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		before, _ := strconv.ParseInt(fs.Lookup("before").Value.String(), 10, 64)
		fork := svc.Store.ForkSession
		if before != 0 {
			fork = func(id, title string) (store.Session, error) { return svc.Store.ForkSessionBefore(id, title, before) }
		}
		row, err := fork(args[0], "")
		if err != nil {
			return err
		}
		v, err := svc.View(row.ID)
		if err == nil {
			c.printView(fs, v)
		}
		return err
	})
}

func runDelete(c *Context, fs *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		if err := svc.Delete(context.Background(), args[0]); err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(map[string]string{"deleted": args[0]})
		} else {
			fmt.Fprintln(c.Stdout, c.T("cli.sessions.deleted", "ID", args[0]))
		}
		return nil
	})
}

func runExport(c *Context, _ *flag.FlagSet, args []string) int {
	return c.withSessions(func(svc *session.Service) error {
		return svc.Store.ExportTo(c.Stdout, args[0])
	})
}

func runImport(c *Context, fs *flag.FlagSet, args []string) int {
	f, err := os.Open(args[0])
	if err != nil {
		return c.exitFor(errs.Wrap(errs.InvalidValue, err, "Field", "FILE", "Value", args[0], "Allowed", c.T("cli.sessions.exportFile")))
	}
	defer f.Close()
	return c.withSessions(func(svc *session.Service) error {
		imp, err := svc.Import(f, session.ImportOptions{ConfirmHome: confirmHome(fs)})
		if err != nil {
			return err
		}
		if wantsJSON(fs) {
			c.printJSON(imp)
			return nil
		}
		c.printView(fs, imp.View)
		c.printNarrowed(imp.Narrowed)
		return nil
	})
}

// printNarrowed says, one line each, which values of the file were imported narrower than
// written, so a person never believes a session has the access its file asked for.
func (c *Context) printNarrowed(list []session.Narrowed) {
	for _, n := range list {
		fmt.Fprintln(c.Stdout, c.T(n.MessageKey(), "Field", n.Field, "From", n.From, "To", n.To))
	}
}

func (c *Context) modeLabel(v session.View) string {
	return c.T(v.Preference().LabelKey())
}

func (c *Context) printView(fs *flag.FlagSet, v session.View) {
	if wantsJSON(fs) {
		c.printJSON(v)
		return
	}
	tw := tabwriter.NewWriter(c.Stdout, 2, 4, 2, ' ', 0)
	rows := [][2]string{
		{"id", v.ID}, {"title", v.Title}, {"workspace", v.Workspace},
		{"interaction_mode", v.InteractionMode}, {"execution_override", v.ExecutionOverride},
		{"mode", c.modeLabel(v)}, {"permission_mode", v.PermissionMode},
	}
	if v.UnrecognizedMode != "" {
		rows = append(rows, [2]string{"unrecognized_mode", fmt.Sprintf("%q", v.UnrecognizedMode)})
	}
	if v.UnrecognizedPermission != "" {
		rows = append(rows, [2]string{"unrecognized_permission", fmt.Sprintf("%q", v.UnrecognizedPermission)})
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s:\t%s\n", r[0], r[1])
	}
	tw.Flush()
}
