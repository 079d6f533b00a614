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

// indirect reports a command that runs code the analysis cannot see.
func indirect(c command) bool {
	tokens := c.tokens()
	for i, t := range tokens {
		base := path.Base(t)
		switch {
		case evaluators[base] && i == 0:
			return true
		case interpreters[base] && (c.fedCode || i == len(tokens)-1 || hasCodeFlag(tokens[i+1:])):
			return true
		case base == "git" && gitDefinesAlias(tokens[i+1:]):
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

// gitDefinesAlias reports "-c alias.x=…" or "--config-env=alias.x=…" among git's options.
func gitDefinesAlias(args []string) bool {
	for i, a := range args {
		lower := strings.ToLower(a)
		switch {
		case strings.HasPrefix(lower, "alias."), strings.HasPrefix(lower, "--config-env=alias."):
			return true
		case (a == "-c" || a == "--config-env") && i+1 < len(args) && strings.HasPrefix(strings.ToLower(args[i+1]), "alias."):
			return true
		case strings.HasPrefix(lower, "-calias."):
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
		if i < len(want) && h == want[i] {
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
