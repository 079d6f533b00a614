package policy

import (
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Shell is what parsing a bash command taught the gate. It is computed once per call (Resolve
// does it with the real file system as its View; Evaluate does it itself, knowing nothing of
// the file system, when handed a call without it). The gate judges the command's effect after
// the shell's own brace, tilde and glob expansion, not its spelling.
type Shell struct {
	// Parsed is false when the command is not valid bash; such a command is never auto-allowed.
	Parsed bool
	// Plain means the command is only simple commands joined by ;, &&, ||, | or newlines, with
	// every word known statically (braces, "~" and globs are expanded; variables, substitutions
	// and arithmetic are not static): no redirection, subshell, function, assignment or
	// background job, and no command name that comes out of an expansion.
	Plain bool
	// Commands holds the expanded words of each simple command, in order, when Plain.
	Commands [][]string
	// ReadOnly means Plain and every command is on the read-only allowlist (allowlist.go) with
	// every path it names resolved inside the workspace and outside .git and the data folder.
	ReadOnly bool
	// Indirect means the command runs code the analysis cannot see: an interpreter given code
	// (bash -c, python -c, node -e, … | sh, <<< or /dev/stdin), eval or source, make, an awk
	// that runs commands, git configured on its command line or through its environment
	// (effect.go). A deny rule cannot be ruled out for it.
	Indirect bool

	// calls holds every command anywhere in the tree (inside substitutions and subshells too).
	calls []command
	// opaque is set when some word cannot be known statically, so a deny rule cannot be ruled out.
	opaque bool
	// paths holds every word of every command and every redirection target, resolved as a path.
	paths []Target
	// pathsUnknown is set when some word could not be resolved (dynamic, or no View).
	pathsUnknown bool
	// words holds every word looked at as a path, as written (the sensitive list matches the
	// spelling too, and it is all there is without a View).
	words []string
}

// command is one simple command with its words expanded.
type command struct {
	fields []field
	// dynamic is set when some word could not be expanded statically (it is missing from fields).
	dynamic bool
	// fedCode is set when its standard input comes from a pipe or a redirection, which an
	// interpreter (sh, python …) would read as code.
	fedCode bool
	// toks are the words as a nested shell would split them, found once per command (tokens).
	toks []string
}

func (c command) words() []string {
	out := make([]string, len(c.fields))
	for i, f := range c.fields {
		out[i] = f.text
	}
	return out
}

// maxPathWords bounds how many words are resolved as paths; past it the rest are unknown.
const maxPathWords = 256

// parsers reuses bash parsers, which are costly to build; Parse resets all parser state, so a
// pooled parser behaves exactly like a new one.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// AnalyzeShell parses cmd as bash and classifies it against v (which may be nil). It is a pure
// function of its inputs.
func AnalyzeShell(cmd string, v View) Shell {
	parser := parsers.Get().(*syntax.Parser)
	file, err := parser.Parse(strings.NewReader(cmd), "")
	parsers.Put(parser)
	if err != nil {
		return Shell{}
	}
	a := analyzer{view: v, expander: &expander{view: v}, sh: Shell{Parsed: true}, fed: map[*syntax.CallExpr]bool{}, resolved: map[string]Target{}}
	a.walk(file)
	a.classify(file)
	return a.sh
}

type analyzer struct {
	view     View
	expander *expander
	sh       Shell
	fed      map[*syntax.CallExpr]bool
	expanded map[*syntax.CallExpr]command
	resolved map[string]Target
}

// markFed notes the command whose standard input n makes a pipe or a redirection. The walk
// meets n before the command (a parent before its children), so the note is there in time.
func (a *analyzer) markFed(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.BinaryCmd:
		if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
			if call, ok := n.Y.Cmd.(*syntax.CallExpr); ok {
				a.fed[call] = true
			}
		}
	case *syntax.Stmt:
		if call, ok := n.Cmd.(*syntax.CallExpr); ok && readsStdin(n.Redirs) {
			a.fed[call] = true
		}
	}
}

func readsStdin(redirs []*syntax.Redirect) bool {
	for _, r := range redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return true
		}
	}
	return false
}

// walk expands every command and redirection target in the tree, in one pass that also notes
// which commands are fed code (markFed).
func (a *analyzer) walk(file *syntax.File) {
	a.expanded = map[*syntax.CallExpr]command{}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryCmd, *syntax.Stmt:
			a.markFed(n)
		case *syntax.CallExpr:
			c := command{fedCode: a.fed[n], fields: make([]field, 0, len(n.Args))}
			for i, w := range n.Args {
				var ok bool
				c.fields, ok = a.expand(c.fields, w, i == 0)
				c.dynamic = c.dynamic || !ok
			}
			c.toks = c.splitWords()
			a.resolveObjectPaths(c)
			a.expanded[n] = c
			a.sh.calls = append(a.sh.calls, c)
		case *syntax.Redirect:
			if n.Word != nil && n.Op != syntax.Hdoc && n.Op != syntax.DashHdoc {
				a.expand(nil, n.Word, false)
			}
		case *syntax.Assign:
			a.sh.Indirect = a.sh.Indirect || a.assignsCodeEnv(n)
		}
		return true
	})
	for _, c := range a.sh.calls {
		a.sh.Indirect = a.sh.Indirect || indirect(c)
	}
}

// assignsCodeEnv reports an assignment (FOO=x cmd, FOO=x alone, export FOO=x, declare -x FOO)
// to a variable through which a program runs code it does not show (codeEnv). An argument of
// export or declare that is only known at run time may assign any variable.
func (a *analyzer) assignsCodeEnv(n *syntax.Assign) bool {
	if n.Name == nil {
		if n.Value == nil {
			return false
		}
		fields, ok := a.expander.word(nil, n.Value)
		if !ok || len(fields) != 1 {
			return true
		}
		name, value, assigned := strings.Cut(fields[0].text, "=")
		return codeEnv(name, value, assigned)
	}
	value, known := "", !n.Naked && n.Array == nil
	if n.Value != nil && known {
		fields, ok := a.expander.word(nil, n.Value)
		known = ok && len(fields) == 1
		if known {
			value = fields[0].text
		}
	}
	return codeEnv(n.Name.Value, value, known)
}

// expand expands one word and resolves what it names; a dynamic word makes the command opaque.
// A command's name without a slash names no file: the shell looks it up on PATH, which holds
// only absolute folders (sandbox.ScrubEnv), so it is not resolved against the workspace.
// The word's fields are appended to dst.
func (a *analyzer) expand(dst []field, w *syntax.Word, commandName bool) ([]field, bool) {
	start := len(dst)
	dst, ok := a.expander.word(dst, w)
	if !ok {
		a.sh.opaque, a.sh.pathsUnknown = true, true
		return dst, false
	}
	for i, f := range dst[start:] {
		a.sh.pathsUnknown = a.sh.pathsUnknown || f.pattern
		if commandName && i == 0 && !strings.Contains(f.text, "/") {
			continue
		}
		cands, n := pathCandidates(f.text)
		for _, p := range cands[:n] {
			a.resolve(p)
		}
	}
	return dst, true
}

// maxObjectColons bounds the ":" of one word looked at as a git object name.
const maxObjectColons = 4

// resolveObjectPaths resolves the paths a git command names inside object names ("HEAD:path",
// ":path", ":0:path", "main:./path"), which read a file's content from the repository, so a
// path deny rule covers them too. A revision may hold a ":" itself (HEAD@{10:00}), so the text
// after every ":" is a candidate.
func (a *analyzer) resolveObjectPaths(c command) {
	if !slices.ContainsFunc(c.fields, func(f field) bool { return path.Base(f.text) == "git" }) {
		return
	}
	for _, f := range c.fields {
		if strings.HasPrefix(f.text, "-") {
			continue
		}
		rest := f.text
		for range maxObjectColons {
			_, after, found := strings.Cut(rest, ":")
			if !found {
				break
			}
			if after != "" {
				a.resolve(after)
			}
			rest = after
		}
	}
}

// pathCandidates are the paths a word may name: itself, and the value of an option
// ("--file=x", "-fx"); the first n of the array.
func pathCandidates(w string) (cands [2]string, n int) {
	switch {
	case w == "" || w == "-" || w == "--":
		return cands, 0
	case strings.HasPrefix(w, "--"):
		if _, v, ok := strings.Cut(w, "="); ok && v != "" {
			return [2]string{v}, 1
		}
		return cands, 0
	case strings.HasPrefix(w, "-") && len(w) > 2:
		return [2]string{w, w[2:]}, 2
	}
	return [2]string{w}, 1
}

func (a *analyzer) resolve(p string) Target {
	if t, ok := a.resolved[p]; ok {
		return t
	}
	if len(a.sh.words) < maxPathWords {
		a.sh.words = append(a.sh.words, p)
	}
	if a.view == nil || len(a.resolved) >= maxPathWords {
		a.sh.pathsUnknown = true
		return Target{}
	}
	t := a.view.Resolve(p)
	a.resolved[p] = t
	if a.sh.paths == nil {
		a.sh.paths = make([]Target, 0, 8) // a command names a few paths; spare the first growths
	}
	a.sh.paths = append(a.sh.paths, t)
	return t
}

// classify decides Plain, Commands and ReadOnly from the top-level statements.
func (a *analyzer) classify(file *syntax.File) {
	var cmds []command
	plain := len(file.Stmts) > 0
	for _, st := range file.Stmts {
		if !a.collectPlain(st, &cmds) {
			plain, cmds = false, nil
			break
		}
	}
	a.sh.Plain = plain
	for _, c := range cmds {
		a.sh.Commands = append(a.sh.Commands, c.words())
	}
	a.sh.ReadOnly = plain && a.allReadOnly(cmds)
}

// collectPlain appends st's simple commands to cmds, or returns false if st is not plain.
func (a *analyzer) collectPlain(st *syntax.Stmt, cmds *[]command) bool {
	if len(st.Redirs) > 0 || st.Background || st.Coprocess || st.Disown {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		cmd, ok := a.plainCall(c)
		if ok {
			*cmds = append(*cmds, cmd)
		}
		return ok
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
			return a.collectPlain(c.X, cmds) && a.collectPlain(c.Y, cmds)
		}
	}
	return false
}

// ansiQuoted reports $'…' or $"…": static, but a spelling meant to hide what it says; deny
// rules see through it, the read-only class does not accept it.
func ansiQuoted(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.SglQuoted:
			if p.Dollar {
				return true
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return true
			}
		}
	}
	return false
}

// plainCall accepts a simple command whose words are all static. A command name that comes
// out of an expansion (a glob, a brace list, a tilde) is not plain: which program runs would
// depend on the file system at run time.
func (a *analyzer) plainCall(c *syntax.CallExpr) (command, bool) {
	if len(c.Assigns) > 0 || len(c.Args) == 0 {
		return command{}, false
	}
	for _, w := range c.Args {
		if ansiQuoted(w) {
			return command{}, false
		}
	}
	cmd := a.expanded[c]
	if cmd.dynamic || len(cmd.fields) == 0 || cmd.fields[0].expanded {
		return command{}, false
	}
	return cmd, true
}
