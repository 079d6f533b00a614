package policy

import (
	"errors"
	"io/fs"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// View is what the shell analysis may learn from the file system: globs are expanded against
// it and every word of a command is resolved through it the way the file tools resolve paths.
// The analysis is a pure function of the command and the View; Resolve hands it the real file
// system, the tests and fuzzers an in-memory one. A nil View knows nothing: globs stay
// unexpanded and no argument is known to stay inside the workspace.
type View interface {
	// Root is the workspace folder, where a shell command starts.
	Root() string
	// Home is the folder "~" stands for.
	Home() string
	// ReadDir lists an absolute directory, for globbing.
	ReadDir(dir string) ([]fs.DirEntry, error)
	// Resolve resolves a path relative to Root, or absolute, like Resolve does for file tools.
	Resolve(p string) Target
}

// field is one word of a command after brace, tilde and glob expansion.
type field struct {
	text string
	// pattern is set when the word held an unquoted glob the View could not expand (no View,
	// or no match): the shell would expand it at run time to something the gate did not see.
	pattern bool
	// expanded is set when the word was rewritten by braces, a tilde or a glob.
	expanded bool
}

// Bounds on expansion: brace lists multiply ({a,b}{a,b}… doubles each time), the library's
// expansion of nested lists costs the square of their depth, and the gate must answer in
// milliseconds whatever the model writes. A word past a bound is not known statically, so a
// deny rule cannot be ruled out and the command is not read-only.
const (
	// maxFields bounds what one word may expand to.
	maxFields = 256
	// maxWordBraces bounds the braces of one word.
	maxWordBraces = 32
	// maxLineFields bounds what all the words of one command line that need expanding (braces,
	// globs, a tilde, quoting) may expand to together.
	maxLineFields = 512
	// maxLineReads bounds the folder listings the globs of one command line may ask for: a
	// pattern such as */*/*/… through a link to its own folder multiplies them at every level.
	maxLineReads = 256
)

// errTooManyReads ends a glob past maxLineReads.
var errTooManyReads = errors.New("policy: the globs of this command list too many folders")

// expander expands the words of one command line; the library's configuration is built once
// per analysis, since every word of a command sees the same environment and file system, and
// only when a word needs the library.
type expander struct {
	view View
	cfg  *expand.Config
	// spent counts the fields expanded so far, against maxLineFields; reads the folder listings,
	// against maxLineReads.
	spent, reads int
}

// readDir lists a folder for a glob, within the command line's bound.
func (e *expander) readDir(dir string) ([]fs.DirEntry, error) {
	if e.reads >= maxLineReads {
		return nil, errTooManyReads
	}
	e.reads++
	return e.view.ReadDir(dir)
}

// config is the library's configuration for this command line.
func (e *expander) config() *expand.Config {
	if e.cfg == nil {
		e.cfg = &expand.Config{Env: expandEnv(e.view)}
		if e.view != nil {
			e.cfg.ReadDir2 = e.readDir
		}
	}
	return e.cfg
}

// plainLiteral reports a word the shell leaves exactly as written: one literal part with no
// character that quoting removal, braces, a tilde or a glob would rewrite. Most words of a
// command are like this, and they need no expansion at all.
func plainLiteral(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(lit.Value, "\\*?[{~") {
		return "", false
	}
	return lit.Value, true
}

// word appends w's fields to dst, expanded as the shell would, statically. ok is false (and
// nothing appended) when the word depends on something only known at run time: a variable, a
// substitution, arithmetic, or ~user.
func (e *expander) word(dst []field, w *syntax.Word) (fields []field, ok bool) {
	if text, ok := plainLiteral(w); ok {
		return append(dst, field{text: text}), true
	}
	if dynamicWord(w) || litCount(w, '{') > maxWordBraces || e.spent >= maxLineFields {
		return dst, false
	}
	v := e.view
	texts, ok := e.fields(w)
	e.spent += len(texts)
	if !ok || e.spent > maxLineFields || e.reads >= maxLineReads {
		return dst, false // past a bound the library may have stopped listing early
	}
	glob, rewrites := unquotedSpecials(w)
	start := len(dst)
	for _, t := range texts {
		switch {
		case rewrites && t == "":
			continue // bash drops an empty word a brace list produced: `{git,} push` is `git push`
		case rewrites && strings.HasPrefix(t, "~"):
			// bash expands a tilde that a brace list put first ({~,x}/.ssh); the expander does
			// not, so the word is not known statically.
			return dst[:start], false
		}
		dst = append(dst, field{text: t, pattern: glob && (v == nil || stillPattern(t)), expanded: rewrites})
	}
	return dst, true
}

// fields are w's expansions: a plain glob through simpleGlob and a plain brace list through
// simpleBraces (shglob.go), any other word through the library.
func (e *expander) fields(w *syntax.Word) ([]string, bool) {
	if pat, ok := simpleGlobWord(w); ok && e.view != nil {
		return e.simpleGlob(pat)
	}
	if alts, ok := simpleBraces(w); ok {
		return alts, true
	}
	return e.libraryFields(w)
}

func (e *expander) libraryFields(w *syntax.Word) ([]string, bool) {
	var texts []string
	limit := min(maxFields, maxLineFields-e.spent)
	for t, err := range expand.FieldsSeq(e.config(), w) {
		if err != nil || len(texts) == limit {
			return nil, false // a word that expands to thousands of fields is not judged statically
		}
		texts = append(texts, t)
	}
	return texts, true
}

// stillPattern reports a field the glob left as it was (no match): it still holds glob
// characters, so the shell's expansion at run time may differ from what was checked.
func stillPattern(t string) bool { return strings.ContainsAny(t, "*?[") }

func expandEnv(v View) expand.Environ {
	if v == nil {
		return expand.ListEnviron("HOME=/nonexistent-home", "PWD=/nonexistent-workspace")
	}
	return expand.ListEnviron("HOME="+v.Home(), "PWD="+v.Root())
}

// dynamicWord reports parts whose value is known only at run time. "~user" counts: resolving
// another user's home would read the system's user database.
func dynamicWord(w *syntax.Word) bool {
	dynamic := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			dynamic = true
		case *syntax.DblQuoted:
			dynamic = dynamic || n.Dollar
		}
		return !dynamic
	})
	if lit, ok := firstLit(w); ok && strings.HasPrefix(lit, "~") {
		user, _, _ := strings.Cut(lit[1:], "/")
		dynamic = dynamic || user != ""
	}
	// bash also expands a tilde after "=" or ":" in a word that looks like an assignment;
	// the expander does not, so such a word is not known statically.
	return dynamic || litContains(w, "=~") || litContains(w, ":~")
}

// litCount counts c in the unquoted literal parts of w.
func litCount(w *syntax.Word, c byte) int {
	n := 0
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			n += strings.Count(lit.Value, string(c))
		}
	}
	return n
}

func litContains(w *syntax.Word, s string) bool {
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok && strings.Contains(lit.Value, s) {
			return true
		}
	}
	return false
}

func firstLit(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 0 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return lit.Value, true
}

// unquotedSpecials reports unquoted glob characters, and any unquoted character the shell
// rewrites (braces, a leading tilde, globs).
func unquotedSpecials(w *syntax.Word) (glob, rewrites bool) {
	for i, part := range w.Parts {
		lit, ok := part.(*syntax.Lit)
		if !ok {
			continue
		}
		for j := 0; j < len(lit.Value); j++ {
			c := lit.Value[j]
			switch {
			case c == '\\':
				j++
			case c == '*' || c == '?' || c == '[':
				glob, rewrites = true, true
			case c == '{' || (c == '~' && i == 0 && j == 0):
				rewrites = true
			}
		}
	}
	return glob, rewrites
}
