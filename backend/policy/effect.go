package policy

import (
	"path"
	"slices"
	"strings"
)

// This file matches deny rules on what a command does rather than how it is spelled: the
// program is found after expansion, by base name, at any position (so wrappers such as sudo,
// env, nice, timeout or xargs cannot hide it), and git's subcommand is found after its global
// options. Deny matching prefers a false alarm to a miss.

// interpreters run code handed to them as an argument or on standard input.
var interpreters = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "fish": true, "busybox": true,
	"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true, "nodejs": true,
	"deno": true, "bun": true, "php": true, "lua": true, "tclsh": true, "pwsh": true, "osascript": true,
}

// codeFlags are the options that hand an interpreter its code inline.
var codeFlags = map[string]bool{"-c": true, "-e": true, "-E": true, "--eval": true, "-r": true, "-p": true, "--print": true, "-x": true}

// evaluators run their arguments as shell code in the current shell.
var evaluators = map[string]bool{"eval": true, "source": true, ".": true, "alias": true}

// indirect reports a command that runs code the analysis cannot see: code handed to an
// interpreter on standard input or inline, a makefile, an awk program that runs commands, or git
// configured from its command line (an alias, a pager, an fsmonitor or an included file can
// each run anything). A command too long to judge counts too.
func indirect(c command) bool {
	tokens := c.tokens()
	if len(tokens) > maxTokens {
		return true
	}
	for i, t := range tokens {
		base := path.Base(t)
		switch {
		case evaluators[base] && i == 0:
			return true
		case interpreters[base] && (c.fedCode || i == len(tokens)-1 || hasCodeFlag(tokens[i+1:]) || readsStdinOperand(tokens[i+1:])):
			return true
		case base == "git" && gitConfigured(tokens[i+1:]):
			return true
		}
	}
	return runsProgramCode(c.fields) || setsCodeEnv(c)
}

// maxTokens bounds the words of one command the deny rules look through, so that judging a
// command costs time in proportion to its length.
const maxTokens = 1024

// stdinFiles name standard input as a file: a program told to read its code from one of them
// runs whatever is piped or redirected in.
var stdinFiles = []string{"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"}

func readsStdinOperand(args []string) bool {
	for _, a := range args {
		if slices.Contains(stdinFiles, a) || strings.HasPrefix(a, "/dev/fd/") || strings.HasPrefix(a, "/proc/self/fd/") {
			return true
		}
	}
	return false
}

// makes read their recipes from a makefile, and take variables (SHELL, CC …) on the command
// line that run commands: what make runs is never on its command line.
var makes = map[string]bool{"make": true, "gmake": true, "bmake": true, "pmake": true, "remake": true}

// awks run commands from their program through system(), pipes and getline.
var awks = map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true, "busybox": true}

// runsProgramCode reports a make, or an awk that may run commands, as the program of a command
// or behind a wrapper (sudo make, xargs awk …). It looks at whole words: an awk program is one
// word whose text a nested-shell split would tear apart.
func runsProgramCode(fields []field) bool {
	for i, f := range programWords(fields) {
		base := path.Base(f.text)
		switch {
		case makes[base]:
			return true
		case awks[base] && awkRunsCode(fields[i+1:]):
			return true
		}
	}
	return false
}

// programWords are the words that may name the program a command runs: its first word, and
// when that is a wrapper (sudo, env, xargs, find …), every word after it.
func programWords(fields []field) []field {
	if len(fields) == 0 {
		return nil
	}
	if slices.Contains(wrappers, path.Base(fields[0].text)) {
		return fields
	}
	return fields[:1]
}

// awkFileFlags load awk code from a file (gawk's -i and -l included).
var awkFileFlags = []string{"-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load"}

// awkRunsCode reports an awk told to read its program from a file, or whose words hold a call
// of system(), a pipe to or from a command, or gawk's @load and @include. It errs on the side of
// the alarm: any later word counts.
func awkRunsCode(args []field) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(a.text, "=")
		switch {
		case slices.Contains(awkFileFlags, name), strings.HasPrefix(a.text, "-f") && !strings.HasPrefix(a.text, "--"):
			return true
		case strings.Contains(a.text, "system"), strings.Contains(a.text, "|"), strings.Contains(a.text, "@"):
			return true
		}
	}
	return false
}

func hasCodeFlag(args []string) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		if codeFlags[name] || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "ce") {
			return true
		}
	}
	return false
}

// gitConfigured reports configuration among git's global options: "-c key=value",
// "--config-env=key=VAR", "--exec-path=dir" and "--git-dir" (a repository whose config the
// command chose). Any key may run code (alias.*, core.pager, core.fsmonitor, core.sshCommand,
// diff.external, include.path …), so none is trusted.
func gitConfigured(args []string) bool {
	for _, a := range gitGlobalOptions(args) {
		lower := strings.ToLower(a)
		switch {
		case strings.HasPrefix(a, "-c"), strings.HasPrefix(lower, "--config-env"), strings.HasPrefix(lower, "--exec-path="),
			strings.HasPrefix(lower, "--git-dir"):
			return true
		}
	}
	return false
}

// gitGlobalOptions are git's arguments before its subcommand.
func gitGlobalOptions(args []string) []string {
	return args[:len(args)-len(gitSubcommand(args))]
}

// codeEnv reports an environment variable through which a program runs code that is not on the
// command line: every GIT_* variable (GIT_CONFIG_*, GIT_CONFIG_PARAMETERS, GIT_DIR,
// GIT_EXEC_PATH, GIT_SSH_COMMAND …) and the common hooks of other programs. value is the
// assigned text, known says whether it is static.
func codeEnv(name, value string, known bool) bool {
	switch {
	case !strings.HasPrefix(name, "GIT_") && !codeEnvNames[name]:
		return false
	case known && harmlessCommands[value] && (strings.HasSuffix(name, "PAGER") || strings.HasSuffix(name, "EDITOR")):
		return false // a pager or editor that only copies or does nothing (GIT_PAGER=cat) hides nothing
	}
	return true
}

var codeEnvNames = map[string]bool{
	"PAGER": true, "EDITOR": true, "VISUAL": true, "LESSOPEN": true, "LESSCLOSE": true, "PATH": true,
	"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true,
	"NODE_OPTIONS": true, "PERL5OPT": true, "PYTHONSTARTUP": true, "PYTHONPATH": true, "RUBYOPT": true,
}

var harmlessCommands = map[string]bool{"cat": true, "true": true, ":": true}

// envSetters set the variable named by a bare word (read NAME, printf -v NAME).
var envSetters = map[string]bool{"read": true, "printf": true, "mapfile": true, "readarray": true, "getopts": true}

// setsCodeEnv reports a word of c that assigns such a variable (env NAME=value, sudo
// NAME=value), or that names one for a builtin that sets it. It errs on the side of the alarm.
func setsCodeEnv(c command) bool {
	if len(c.fields) > 0 && c.fields[0].text == "set" && exportsAll(c.fields[1:]) {
		return true
	}
	setter := len(c.fields) > 0 && envSetters[c.fields[0].text]
	for _, f := range c.fields {
		name, value, assigned := strings.Cut(f.text, "=")
		if (assigned || setter) && codeEnv(name, value, assigned) {
			return true
		}
	}
	return false
}

// exportsAll reports set -a (set -o allexport): every later assignment reaches the programs run.
func exportsAll(args []field) bool {
	for _, a := range args {
		if a.text == "allexport" || strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, "a") {
			return true
		}
	}
	return false
}

// tokens are the command's expanded words, each also split the way a nested shell (bash -c,
// eval, xargs sh -c) would, so a rule sees "rm" inside `bash -c 'rm -rf x'`.
func (c command) tokens() []string {
	if c.toks != nil {
		return c.toks
	}
	return c.splitWords()
}

func (c command) splitWords() []string {
	out := make([]string, 0, len(c.fields))
	for _, f := range c.fields {
		if strings.ContainsAny(f.text, " \t\n;&|()<>`'\"") {
			out = append(out, splitTokens(f.text)...)
			continue
		}
		out = append(out, f.text)
	}
	return out
}

// splitTokens splits a word's text the way a nested shell might.
func splitTokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(";&|()<>`'\"", r)
	})
}

// runs reports whether the command runs rule (a program followed by words, e.g. "git push" or
// "rm -rf") anywhere in it. A word that is still a glob pattern matches any name it could
// expand to.
func (c command) runs(rule []string) bool {
	tokens := c.tokens()
	if len(tokens) > maxTokens {
		return false // indirect: the rule is uncertain, never a miss
	}
	for i, t := range tokens {
		if !programIs(t, rule[0]) {
			continue
		}
		rest, want := tokens[i+1:], rule[1:]
		if rule[0] == "git" && len(rule) > 1 {
			rest = gitSubcommand(rest)
			if len(rest) == 0 || rest[0] != rule[1] {
				continue
			}
			rest, want = rest[1:], rule[2:]
		}
		if isSubsequence(want, rest) {
			return true
		}
	}
	return false
}

// programIs compares a word to a rule's program by base name ("/bin/rm" is rm); a glob pattern
// ("/bin/r?") matches when it could expand to the program.
func programIs(word, program string) bool {
	base := path.Base(word)
	if base == program {
		return true
	}
	ok, err := path.Match(base, program)
	return err == nil && ok && strings.ContainsAny(base, "*?[")
}

// gitGlobalWithValue are git's global options that take the next word as their value.
var gitGlobalWithValue = map[string]bool{
	"-c": true, "-C": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--exec-path": true, "--config-env": true, "--super-prefix": true, "--list-cmds": true,
}

// gitSubcommand returns git's arguments from its subcommand on, skipping global options
// (-c x=y, -C dir, --no-pager, --git-dir=…).
func gitSubcommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case gitGlobalWithValue[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return args[i:]
		}
	}
	return nil
}

// isSubsequence reports whether want occurs in have in order, not necessarily adjacent: deny
// "rm -rf" also catches `rm -v -rf x`.
func isSubsequence(want, have []string) bool {
	i := 0
	for _, h := range have {
		if i == len(want) {
			break
		}
		if h == want[i] {
			i++
		}
	}
	return i == len(want)
}

// denyCommand matches a deny rule's command against the whole tree.
func denyCommand(sh *Shell, rule []string) ruleMatch {
	if len(rule) == 0 {
		return matched
	}
	for _, c := range sh.calls {
		if c.runs(rule) {
			return matched
		}
	}
	if !sh.Parsed || sh.opaque || sh.Indirect {
		return uncertain
	}
	return noMatch
}

// denyShellPath matches a path deny rule against every path the command names. A path that
// could not be resolved (an unreadable folder on its way, a root that is gone) may be the
// denied one, so it is uncertain, never a miss.
func denyShellPath(r Rule, sh *Shell) ruleMatch {
	unresolved := false
	for _, t := range sh.paths {
		if t.Resolved && r.matchPath(t) == matched {
			return matched
		}
		unresolved = unresolved || !t.Resolved
	}
	if !sh.Parsed || sh.pathsUnknown || sh.Indirect || unresolved {
		return uncertain
	}
	return noMatch
}

// SuggestPrefix is the widest command scope the composer may offer for "allow for this
// session" or "always allow": the program and its subcommand ("npm test"), for a single plain
// command whose second word is a subcommand. Interpreters, wrappers and commands that run
// code get none: a prefix there would let anything through.
func SuggestPrefix(sh *Shell) string {
	if sh == nil || !sh.Plain || sh.Indirect || len(sh.Commands) != 1 {
		return ""
	}
	words := sh.Commands[0]
	if len(words) < 3 || strings.HasPrefix(words[1], "-") || strings.Contains(words[0], "/") {
		return ""
	}
	if interpreters[words[0]] || evaluators[words[0]] || slices.Contains(wrappers, words[0]) {
		return ""
	}
	return words[0] + " " + words[1]
}

// wrappers run another program given as their arguments.
var wrappers = []string{"env", "command", "exec", "nice", "timeout", "sudo", "doas", "xargs", "nohup", "time",
	"stdbuf", "ionice", "setsid", "chroot", "strace", "ltrace", "watch", "su", "runuser", "flock", "unshare", "nsenter", "find"}
