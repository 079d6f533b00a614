package policy

import (
	"path"
	"slices"
	"strings"
)

// Effect is what a rule does when it matches.
type Effect string

const (
	Allow Effect = "allow"
	Deny  Effect = "deny"
)

// Rule is an "always allow" or deny rule from Settings (R-DEC-4). A rule with Path applies to
// read, write and edit calls; a rule with Command applies to bash calls; a rule with neither
// applies to every call of its Kind. Kind "" means any kind the pattern applies to.
//
// Path is a glob (see matchGlob). A relative pattern is matched against the workspace-relative
// path of a call inside the workspace; a pattern starting with "/" is matched against the
// resolved absolute path, so it can name files outside.
//
// Command is a command prefix of whole words: "git status" matches `git status -s` but not
// `git statusx`. An allow rule matches only a plain command (see Shell) in which EVERY simple
// command starts with the prefix, so "git status" never allows `git status; rm -rf /` or
// `git status > f`. A deny rule matches when ANY command anywhere in the command — nested in
// substitutions, subshells or wrappers like sudo, xargs and bash -c — contains the prefix words;
// when the command cannot be read that precisely (it does not parse, or has dynamic words) a
// deny rule can not be ruled out and the call asks.
//
// Any Effect other than Allow is treated as Deny: a damaged rule never widens.
type Rule struct {
	ID      string
	Effect  Effect
	Kind    Kind
	Path    string
	Command string
}

// Grant is "allow for this session" (R-DEC-4). It matches exactly like an allow rule and never
// leaves its session.
type Grant struct {
	Kind    Kind
	Path    string
	Command string
}

func (g Grant) rule() Rule {
	return Rule{Effect: Allow, Kind: g.Kind, Path: g.Path, Command: g.Command}
}

// ruleMatch is the outcome of testing one rule against a call.
type ruleMatch int

const (
	noMatch ruleMatch = iota
	matched
	uncertain // a deny rule that cannot be ruled out
)

// appliesTo reports whether r's kind and pattern type fit the call's kind.
func (r Rule) appliesTo(k Kind) bool {
	if r.Kind != "" && r.Kind != k {
		return false
	}
	switch {
	case r.Path != "" && r.Command != "":
		return false
	case r.Path != "":
		return k.HasPath()
	case r.Command != "":
		return k == KindBash
	}
	return r.Kind != "" || k.HasPath() || k == KindBash
}

func (r Rule) match(c Resolved, sh *Shell) ruleMatch {
	if !r.appliesTo(c.Call.Kind) {
		return noMatch
	}
	switch {
	case c.Call.Kind.HasPath():
		return r.matchPath(c.Target)
	case c.Call.Kind == KindBash:
		return r.matchCommand(sh)
	}
	return matched
}

func (r Rule) matchPath(t Target) ruleMatch {
	if r.Path == "" {
		return matched
	}
	name := t.Rel
	if strings.HasPrefix(r.Path, "/") {
		name = t.Path
	} else if !t.Inside {
		return noMatch
	}
	ok, err := matchGlob(r.Path, name)
	if err != nil && r.Effect != Allow {
		return matched // a broken deny pattern fails closed
	}
	if ok && err == nil {
		return matched
	}
	return noMatch
}

func (r Rule) matchCommand(sh *Shell) ruleMatch {
	prefix := strings.Fields(r.Command)
	if r.Effect == Allow {
		return allowMatch(sh, prefix)
	}
	return denyMatch(sh, prefix)
}

func allowMatch(sh *Shell, prefix []string) ruleMatch {
	if !sh.Plain {
		return noMatch
	}
	for _, cmd := range sh.Commands {
		if !hasWordPrefix(cmd, prefix) {
			return noMatch
		}
	}
	return matched
}

func denyMatch(sh *Shell, prefix []string) ruleMatch {
	if len(prefix) == 0 {
		return matched
	}
	for _, tokens := range sh.calls {
		if containsCommand(tokens, prefix) {
			return matched
		}
	}
	if !sh.Parsed || sh.opaque {
		return uncertain
	}
	return noMatch
}

func hasWordPrefix(words, prefix []string) bool {
	return len(words) >= len(prefix) && slices.Equal(words[:len(prefix)], prefix)
}

// containsCommand reports whether seq occurs in tokens as consecutive words, where the first
// word may also be spelled as a path ("/bin/rm" for "rm"). Deny matching prefers a false alarm.
func containsCommand(tokens, seq []string) bool {
	for i := 0; i+len(seq) <= len(tokens); i++ {
		if path.Base(tokens[i]) == seq[0] && hasWordPrefix(tokens[i+1:], seq[1:]) {
			return true
		}
	}
	return false
}
