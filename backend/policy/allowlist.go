package policy

import "strings"

// commandSpec says when a command on the read-only allowlist really only reads.
type commandSpec struct {
	// globSafe: no option of the command writes or runs anything, so an unquoted glob that
	// expands at run time to a file named like an option (say "-delete") cannot change what
	// it does.
	globSafe bool
	// pathFree: the arguments are not paths (echo, pwd), so the outside-workspace check is moot.
	pathFree bool
	// follows lists the options that make the command follow symbolic links while it walks a
	// folder, which could lead it out of the workspace past the check of its arguments.
	follows []string
	// check vets the arguments (words after the command name); nil accepts any.
	check func(args []string) bool
}

// readOnlyCommands is the allowlist for auto (R-GATE-3). A command is here only if no argument
// combination we accept can write a file, run another program or reach the network. Commands
// with an output-file or exec option that is easy to miss (sort -o, sed -i, tree -o, file -C,
// xargs, env, awk) are left out on purpose: they ask.
var readOnlyCommands = map[string]commandSpec{
	"ls":       {globSafe: true, follows: []string{"-L", "--dereference"}},
	"cat":      {globSafe: true},
	"head":     {globSafe: true},
	"tail":     {globSafe: true},
	"wc":       {globSafe: true},
	"stat":     {globSafe: true},
	"du":       {globSafe: true, follows: []string{"-L", "--dereference"}},
	"grep":     {globSafe: true, follows: grepFollows},
	"egrep":    {globSafe: true, follows: grepFollows},
	"fgrep":    {globSafe: true, follows: grepFollows},
	"diff":     {globSafe: true, follows: []string{"-r", "--recursive"}},
	"cmp":      {globSafe: true},
	"nl":       {globSafe: true},
	"basename": {globSafe: true, pathFree: true},
	"dirname":  {globSafe: true, pathFree: true},
	"pwd":      {pathFree: true},
	"echo":     {globSafe: true, pathFree: true},
	"true":     {pathFree: true},
	"whoami":   {pathFree: true},
	"uname":    {pathFree: true},
	"which":    {pathFree: true},
	"rg":       {check: rgReadOnly, follows: []string{"-L", "--follow"}},
	"find":     {check: findReadOnly, follows: []string{"-L", "-follow"}},
	"git":      {pathFree: true, check: gitReadOnly},
}

// grepFollows: -R follows every symbolic link it meets (-r only those named on the line).
var grepFollows = []string{"-R", "--dereference-recursive"}

func (a *analyzer) allReadOnly(cmds []command) bool {
	for _, c := range cmds {
		if !a.readOnly(c) {
			return false
		}
	}
	return len(cmds) > 0
}

// readOnly judges one expanded command. Every argument of a command that takes paths must
// resolve, through the View, inside the workspace and outside .git and the data folder: the
// check sees what braces, "~" and globs really name, and where symbolic links lead.
func (a *analyzer) readOnly(c command) bool {
	spec, ok := readOnlyCommands[c.fields[0].text]
	if !ok {
		return false
	}
	args := c.fields[1:]
	words := make([]string, len(args))
	for i, f := range args {
		if f.pattern || (f.expanded && !spec.globSafe) || usesOption(f.text, spec.follows) {
			return false
		}
		if !spec.pathFree && !a.staysInside(f.text) {
			return false
		}
		words[i] = f.text
	}
	return spec.check == nil || spec.check(words)
}

// staysInside reports whether every path an argument may name resolves inside the workspace,
// unprotected. Options that carry a value are checked by their value.
func (a *analyzer) staysInside(arg string) bool {
	if strings.HasPrefix(arg, "-") && !strings.HasPrefix(arg, "--") {
		// A short option cluster may carry a path ("-f/etc/x"); it is not resolved but read.
		return !mayLeaveWorkspace(arg)
	}
	cands, n := pathCandidates(arg)
	for _, p := range cands[:n] {
		t := a.resolve(p)
		if !t.Resolved || !t.Inside || t.Protected != NotProtected {
			return false
		}
	}
	return true
}

// usesOption reports arg as one of opts, or a short-option cluster holding one ("-rnR").
func usesOption(arg string, opts []string) bool {
	for _, o := range opts {
		switch {
		case arg == o || strings.HasPrefix(o, "--") && abbreviates(arg, o):
			return true
		case len(o) == 2 && o[0] == '-' && len(arg) > 1 && arg[0] == '-' && arg[1] != '-' && strings.IndexByte(arg[1:], o[1]) >= 0:
			return true
		}
	}
	return false
}

// mayLeaveWorkspace flags an argument that could name a file outside the workspace, or inside
// .git: absolute and home paths, any "..", and options that carry a path ("-f/x", "--file=/x").
// Reads outside the workspace ask (R-GATE-3); this errs on the side of asking.
func mayLeaveWorkspace(arg string) bool {
	switch {
	case strings.HasPrefix(arg, "/"), strings.HasPrefix(arg, "~"), strings.Contains(arg, ".."):
		return true
	case strings.HasPrefix(arg, "-") && (strings.Contains(arg, "/") || strings.Contains(arg, "~")):
		return true
	}
	for _, part := range strings.Split(arg, "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// findWriters are find's actions that delete, write files or run programs.
var findWriters = []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}

func findReadOnly(args []string) bool {
	for _, a := range args {
		for _, w := range findWriters {
			if strings.EqualFold(a, w) {
				return false
			}
		}
	}
	return true
}

// rgReadOnly rejects the options that make ripgrep run another program.
func rgReadOnly(args []string) bool {
	for _, a := range args {
		if abbreviates(a, "--pre") || abbreviates(a, "--pre-glob") || abbreviates(a, "--hostname-bin") {
			return false
		}
	}
	return true
}

// gitSubcommands are the git subcommands that only read. Global options before the subcommand
// (-c, -C, --git-dir, --exec-path …) are refused by requiring the subcommand to come first.
var gitSubcommands = map[string]func(args []string) bool{
	"status":   gitArgsReadOnly,
	"diff":     gitArgsReadOnly,
	"log":      gitArgsReadOnly,
	"show":     gitArgsReadOnly,
	"ls-files": gitArgsReadOnly,
	"blame":    gitArgsReadOnly,
	"branch":   gitBranchListOnly,
}

func gitReadOnly(args []string) bool {
	if len(args) == 0 {
		return false
	}
	check, ok := gitSubcommands[args[0]]
	return ok && check(args[1:])
}

// gitWriters are options of the reading subcommands that write a file, run an external diff
// driver or read outside the repository. git accepts unambiguous abbreviations of long options,
// so they are matched as prefixes too.
var gitWriters = []string{"--output", "--ext-diff", "--no-index", "--exec", "--upload-pack"}

func gitArgsReadOnly(args []string) bool {
	for _, a := range args {
		if a == "-o" || strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--") {
			return false
		}
		for _, w := range gitWriters {
			if abbreviates(a, w) {
				return false
			}
		}
		if mayLeaveWorkspace(a) && !isRevisionRange(a) {
			return false
		}
	}
	return true
}

// isRevisionRange accepts "main..feature" and "a...b", which contain ".." but name commits.
func isRevisionRange(a string) bool {
	return !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") && !strings.Contains(a, "/..") && !strings.Contains(a, "../")
}

// gitBranchListFlags are the git branch options that only list; anything else (a name, -d, -m,
// -c, --set-upstream-to …) would change a branch.
var gitBranchListFlags = map[string]bool{
	"-a": true, "-r": true, "-v": true, "-vv": true, "-l": true, "--list": true, "--all": true,
	"--remotes": true, "--verbose": true, "--show-current": true, "--no-color": true,
	"--merged": true, "--no-merged": true,
}

func gitBranchListOnly(args []string) bool {
	for _, a := range args {
		if !gitBranchListFlags[a] {
			return false
		}
	}
	return true
}

// abbreviates reports whether arg is the long option long, or an abbreviation of it that a
// getopt-style parser would accept, with or without "=value".
func abbreviates(arg, long string) bool {
	name, _, _ := strings.Cut(arg, "=")
	return len(name) > 2 && strings.HasPrefix(name, "--") && strings.HasPrefix(long, name)
}
