// Package cli is the agentdesk command line: the desktop window (no arguments), serve,
// doctor, version, and the data commands. Output is localized; a usage or validation error
// exits 2 with a message that names the bad value and the allowed ones.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/workspace"
)

// Version is stamped at build time with -ldflags "-X agentdesk/app/cli.Version=…".
var Version = "0.1.0-dev"

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// Env is everything a command touches outside itself, so tests run commands in-process.
type Env struct {
	Stdout, Stderr io.Writer
	Assets         fs.FS // the built frontend
	Stdin          io.Reader
	IsTerminal     func() bool // whether a person sits at Stdin
	Getenv         func(string) string
	Desktop        func(ctx *Context) error // opens the window; swapped out in tests
}

// Context is one parsed invocation.
type Context struct {
	Env
	msgs    *i18n.Bundle
	lang    string
	DataDir string
	// Folder is the one the window's new task starts in (`agentdesk FOLDER`); empty means the
	// home folder.
	Folder string
}

type command struct {
	name string
	run  func(c *Context, args []string) int
}

func commands() []command {
	return []command{
		{"serve", runServe},
		{"doctor", runDoctor},
		{"version", runVersion},
		{"sessions", runSessions},
		{"settings", runSettings},
		{"route", runRoute},
		{"run", runRun},
		{"resume", runResume},
		{"acp", runACP},
		{"mcp", runMCP},
		{"checkpoints", runCheckpoints},
	}
}

// Main runs one invocation and returns its exit code.
func Main(args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	msgs, err := i18n.Load()
	if err != nil {
		fmt.Fprintln(env.Stderr, err)
		return ExitFailure
	}
	// Stderr is shared with the external agents' diagnostics, written from their goroutines.
	env.Stderr = &lockedWriter{w: env.Stderr}
	c := &Context{Env: env, msgs: msgs, lang: detectLanguage(env.Getenv)}
	if len(args) > 0 && isHelp(args[0]) || len(args) > 0 && args[0] == "help" {
		c.printUsage(c.Stdout)
		return ExitOK
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return runDesktop(c, args)
	}
	for _, cmd := range commands() {
		if cmd.name == args[0] {
			return cmd.run(c, args[1:])
		}
	}
	// A launcher or file manager hands over a folder to work on: `agentdesk ~/project`.
	if _, err := os.Stat(args[0]); err == nil {
		return runDesktop(c, args)
	}
	c.errorf(errs.Invalid("command", args[0], commandNames()))
	c.printUsage(c.Stderr)
	return ExitUsage
}

// lockedWriter serializes writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

func commandNames() []string {
	var out []string
	for _, cmd := range commands() {
		out = append(out, cmd.name)
	}
	sort.Strings(out)
	return out
}

func detectLanguage(getenv func(string) string) string {
	if l := getenv("AGENTDESK_LANG"); i18n.Supported(l) {
		return l
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return i18n.Detect(v)
		}
	}
	return i18n.Fallback
}

// T localizes a CLI message.
func (c *Context) T(key string, kv ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return c.msgs.T(c.lang, key, args)
}

func (c *Context) errorf(err error) {
	fmt.Fprintln(c.Stderr, "agentdesk: "+c.msgs.Error(c.lang, err))
}

// exitFor prints err and picks the exit code its kind deserves.
func (c *Context) exitFor(err error) int {
	c.errorf(err)
	switch errs.KindOf(err) {
	case errs.InvalidValue, errs.InvalidInput, errs.Usage, errs.NoWorkspace, errs.MissingArgument, errs.AlreadyExists, errs.NotFound,
		mode.ChatWithOverride, external.ChatRefused, external.NoPlanMode, agent.ShortcutInChat, client.ExternalAgentNotSaved,
		workspace.Required, workspace.Relative, workspace.Invalid, workspace.SystemFolder, workspace.ContainsHome, workspace.HomeNeedsConfirmation:
		return ExitUsage
	}
	return ExitFailure
}

func (c *Context) printUsage(w io.Writer) {
	fmt.Fprintln(w, c.T("cli.usage.header"))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "  agentdesk                 "+c.T("cli.usage.desktop"))
	for _, name := range commandNames() {
		// The settings' names come from the table `settings set` reads, so the help names them all.
		fmt.Fprintf(w, "  agentdesk %-15s %s\n", name, c.T("cli.usage."+name, "Names", strings.Join(settingNames(), ", ")))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, c.T("cli.usage.footer"))
}

// flags builds a subcommand's flag set with the shared --data-dir flag and localized help.
func (c *Context) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("agentdesk "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.DataDir, "data-dir", "", c.T("cli.flag.dataDir"))
	return fs
}

// parse parses a command that takes no positional arguments.
func (c *Context) parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	_, code, ok = c.parseArgs(fs, args, nil)
	return code, ok
}

// parseArgs parses flags wherever they stand among the positional arguments, whose names are
// given (for help and for the "missing argument" error). It prints help (exit 0) or a usage
// error (exit 2) when it returns false.
func (c *Context) parseArgs(fs *flag.FlagSet, args, names []string) (positional []string, code int, ok bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.printFlags(c.Stdout, fs, names)
			return nil, ExitOK, false
		}
		if err != nil {
			return nil, c.usageError(fs, names, errs.New(errs.Usage, "Detail", err.Error())), false
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) > len(names) {
		return nil, c.usageError(fs, names, errs.Invalid("argument", positional[len(names)], []string{strings.Join(names, " ")})), false
	}
	if len(positional) < required(names) {
		return nil, c.usageError(fs, names, errs.New(errs.MissingArgument, "Name", names[len(positional)])), false
	}
	if c.DataDir == "" {
		c.DataDir = DefaultDataDir(c.Getenv)
	}
	return positional, ExitOK, true
}

// required counts the positional arguments that must be given: the names before the first
// optional one, which is written in brackets ("[FOLDER]").
func required(names []string) int {
	for i, n := range names {
		if strings.HasPrefix(n, "[") {
			return i
		}
	}
	return len(names)
}

func (c *Context) usageError(fs *flag.FlagSet, names []string, err error) int {
	c.errorf(err)
	c.printFlags(c.Stderr, fs, names)
	return ExitUsage
}

func (c *Context) printFlags(w io.Writer, fs *flag.FlagSet, names []string) {
	line := fs.Name()
	for _, n := range names {
		line += " " + n
	}
	fmt.Fprintf(w, "%s: %s [%s]\n", c.T("cli.usage.usage"), line, c.T("cli.usage.flags"))
	fs.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(w, "  --%-12s %s\n", f.Name, f.Usage)
	})
}

func runVersion(c *Context, args []string) int {
	fs := c.flags("version")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	fmt.Fprintln(c.Stdout, "agentdesk "+Version)
	return ExitOK
}

func runDesktop(c *Context, args []string) int {
	fs := c.flags("")
	folder, code, ok := c.parseArgs(fs, args, []string{"[FOLDER]"})
	if !ok {
		return code
	}
	if len(folder) == 1 {
		dir := absPath(folder[0])
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return c.exitFor(errs.New(errs.NoWorkspace, "Path", dir))
		}
		c.Folder = dir
	}
	if err := c.Desktop(c); err != nil {
		return c.exitFor(err)
	}
	return ExitOK
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}
