package policy

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Shell is what parsing a bash command taught the gate. It is computed once per call (Resolve
// does it; Evaluate does it itself when handed a call without it).
type Shell struct {
	// Parsed is false when the command is not valid bash; such a command is never auto-allowed.
	Parsed bool
	// Plain means the command is only simple commands joined by ;, &&, ||, | or newlines, with
	// every word a literal: no redirection, substitution, expansion, subshell, function,
	// assignment or background job. Only plain commands can match an allow rule or a grant.
	Plain bool
	// Commands holds the literal words of each simple command, in order, when Plain.
	Commands [][]string
	// ReadOnly means Plain and every command is on the read-only allowlist (allowlist.go).
	ReadOnly bool

	// calls holds, for every command anywhere in the tree (inside substitutions and subshells
	// too), its literal text split into tokens; deny rules look for their prefix in it.
	calls [][]string
	// opaque is set when some word cannot be read literally, so a deny rule cannot be ruled out.
	opaque bool
}

// parsers reuses bash parsers, which are costly to build; Parse resets all parser state, so a
// pooled parser behaves exactly like a new one.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// AnalyzeShell parses cmd as bash and classifies it. It is pure.
func AnalyzeShell(cmd string) Shell {
	parser := parsers.Get().(*syntax.Parser)
	file, err := parser.Parse(strings.NewReader(cmd), "")
	parsers.Put(parser)
	if err != nil {
		return Shell{}
	}
	s := Shell{Parsed: true}
	var cmds [][]word
	s.Plain = len(file.Stmts) > 0
	for _, st := range file.Stmts {
		if !collectPlain(st, &cmds) {
			s.Plain, cmds = false, nil
			break
		}
	}
	for _, c := range cmds {
		s.Commands = append(s.Commands, texts(c))
	}
	s.ReadOnly = s.Plain && allReadOnly(cmds)
	s.collectCalls(file)
	return s
}

func texts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// collectPlain appends st's simple commands to cmds, or returns false if st is not plain.
func collectPlain(st *syntax.Stmt, cmds *[][]word) bool {
	if len(st.Redirs) > 0 || st.Background || st.Coprocess || st.Disown {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		words, ok := plainCall(c)
		if ok {
			*cmds = append(*cmds, words)
		}
		return ok
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
			return collectPlain(c.X, cmds) && collectPlain(c.Y, cmds)
		}
	}
	return false
}

// plainCall reads a simple command whose words are all literal. A command name the shell would
// expand (a glob, a brace list, a tilde) is not plain: we could not say which program runs.
func plainCall(c *syntax.CallExpr) ([]word, bool) {
	if len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil, false
	}
	words := make([]word, len(c.Args))
	for i, w := range c.Args {
		lit, ok := literal(w)
		if !ok {
			return nil, false
		}
		words[i] = lit
	}
	if words[0].expanding {
		return nil, false
	}
	return words, true
}

// collectCalls walks the whole tree so deny rules also see commands nested in substitutions,
// subshells, functions and wrappers such as `sudo rm`, `xargs rm` or `bash -c 'rm …'`.
func (s *Shell) collectCalls(file *syntax.File) {
	syntax.Walk(file, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var tokens []string
		for _, w := range call.Args {
			lit, ok := literal(w)
			if !ok {
				s.opaque = true
				continue
			}
			tokens = append(tokens, splitTokens(lit.text)...)
		}
		s.calls = append(s.calls, tokens)
		return true
	})
}

// splitTokens splits a word's text the way a nested shell (bash -c, eval) might.
func splitTokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(";&|()<>`'\"", r)
	})
}

// word is a word's literal text plus whether it held unquoted characters the shell would expand
// (globs, braces, a tilde).
type word struct {
	text      string
	expanding bool
}

// literal returns w's text when it is made only of unquoted literals, single-quoted strings and
// double-quoted strings without expansions; anything dynamic returns false.
func literal(w *syntax.Word) (word, bool) {
	var out word
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			text, expanding := unquoted(p.Value)
			b.WriteString(text)
			out.expanding = out.expanding || expanding
		case *syntax.SglQuoted:
			if p.Dollar {
				return word{}, false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar || !doubleQuoted(&b, p.Parts) {
				return word{}, false
			}
		default:
			return word{}, false
		}
	}
	out.text = b.String()
	return out, true
}

// unquoted removes backslash escapes from unquoted text and reports characters that expand.
func unquoted(raw string) (string, bool) {
	var b strings.Builder
	// bash expands a tilde at the start of a word and after "=" or ":" in assignment-like words.
	expanding := strings.HasPrefix(raw, "~") || strings.Contains(raw, "=~") || strings.Contains(raw, ":~")
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw):
			i++
			if raw[i] != '\n' {
				b.WriteByte(raw[i])
			}
			continue
		case strings.IndexByte("*?[]{}", c) >= 0:
			expanding = true
		}
		b.WriteByte(c)
	}
	return b.String(), expanding
}

func doubleQuoted(b *strings.Builder, parts []syntax.WordPart) bool {
	for _, part := range parts {
		lit, ok := part.(*syntax.Lit)
		if !ok {
			return false
		}
		raw := lit.Value
		for i := 0; i < len(raw); i++ {
			if raw[i] == '\\' && i+1 < len(raw) && strings.IndexByte("$`\"\\\n", raw[i+1]) >= 0 {
				i++
				if raw[i] == '\n' {
					continue
				}
			}
			b.WriteByte(raw[i])
		}
	}
	return true
}
