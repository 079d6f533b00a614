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

// Scope says how an allow rule or grant matches. Stored rules from before scopes existed have
// none and read as exact: a rule never matches more than it did when the person saw it.
type Scope string

const (
	// ScopeExact matches the same command text, or the same file.
	ScopeExact Scope = "exact"
	// ScopePrefix matches a plain command whose every simple command starts with the rule's
	// words ("npm test" matches `npm test -- --watch`). The composer offers it only where
	// SuggestPrefix does, and shows it before the person confirms.
	ScopePrefix Scope = "prefix"
	// ScopePattern matches paths by glob (see matchGlob); only a pattern the person typed.
	ScopePattern Scope = "pattern"
)

// Scopes lists the valid scopes.
var Scopes = []Scope{ScopeExact, ScopePrefix, ScopePattern}

// Rule is an "always allow" or deny rule from Settings (R-DEC-4). A rule with Path applies to
// read, write and edit calls; a rule with Command applies to bash calls; a rule with MCP
// ("server/tool", written mcp:server/tool) applies to MCP calls (mcp.go); a rule with none
// applies to every call of its Kind. Kind "" means any kind the pattern applies to.
//
// An allow rule matches by its Scope: exact (the default) compares the command text, or the
// path (workspace-relative inside, absolute outside) literally; prefix and pattern widen only
// when the person chose them. An allow rule never matches a command it cannot read plainly.
//
// A deny rule matches the command's effect, not its spelling (effect.go): Command is a program
// and words ("git push", "rm -rf") found anywhere in the command — after brace and glob
// expansion, by base name, behind wrappers, after git's global options, inside bash -c. Path is
// a glob (see matchGlob; a relative pattern is matched against the workspace-relative path, one
// starting with "/" against the absolute path) and also covers every path a shell command
// names. When a deny rule cannot be ruled out (the command does not parse, has dynamic words or
// runs code it does not show) the call asks.
//
// Any Effect other than Allow is treated as Deny, and an unknown Scope as exact: a damaged rule
// never widens.
type Rule struct {
	ID      string
	Effect  Effect
	Kind    Kind
	Path    string
	Command string
	MCP     string
	Scope   Scope
	// Scripts is an allow rule's record of the files its command ran as code when it was
	// approved (Resolved.Scripts); it holds only while they are unchanged (scripts.go).
	Scripts string
}

// Grant is "allow for this session" (R-DEC-4). It matches exactly like an allow rule and never
// leaves its session.
type Grant struct {
	Kind    Kind
	Path    string
	Command string
	MCP     string
	Scope   Scope
	Scripts string
}

func (g Grant) rule() Rule {
	return Rule{Effect: Allow, Kind: g.Kind, Path: g.Path, Command: g.Command, MCP: g.MCP, Scope: g.Scope, Scripts: g.Scripts}
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
	if r.MCP != "" || k == KindMCP {
		return r.appliesToMCP(k)
	}
	if r.Kind != "" && r.Kind != k && !(k == KindBash && r.Effect != Allow && r.Path != "" && r.Kind.HasPath()) {
		return false
	}
	switch {
	case r.Path != "" && r.Command != "":
		return false
	case r.Path != "":
		return k.HasPath() || (k == KindBash && r.Effect != Allow && (r.Kind == "" || r.Kind.HasPath()))
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
	case c.Call.Kind == KindBash && r.Path != "":
		return denyShellPath(r, sh)
	case c.Call.Kind == KindBash:
		return r.matchCommand(c.Call.Command, sh)
	case c.Call.Kind == KindMCP:
		return r.matchMCP(c.Call.MCP)
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
	if r.Effect == Allow && r.Scope != ScopePattern {
		if path.Clean(r.Path) == name {
			return matched
		}
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

func (r Rule) matchCommand(text string, sh *Shell) ruleMatch {
	if r.Effect != Allow {
		return denyCommand(sh, strings.Fields(r.Command))
	}
	if r.Scope == ScopePrefix {
		return allowPrefix(sh, strings.Fields(r.Command))
	}
	if r.Command != "" && strings.TrimSpace(text) == r.Command {
		return matched
	}
	if r.Command == "" {
		return matched
	}
	return noMatch
}

// allowPrefix matches a plain command in which EVERY simple command starts with the prefix, so
// "git status" never allows `git status; rm -rf /` or `git status > f`.
func allowPrefix(sh *Shell, prefix []string) ruleMatch {
	if !sh.Plain || sh.Indirect || len(prefix) == 0 {
		return noMatch
	}
	for _, cmd := range sh.Commands {
		if !hasWordPrefix(cmd, prefix) {
			return noMatch
		}
	}
	return matched
}

func hasWordPrefix(words, prefix []string) bool {
	return len(words) >= len(prefix) && slices.Equal(words[:len(prefix)], prefix)
}
