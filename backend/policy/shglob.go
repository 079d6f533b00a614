package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// The library's glob (mvdan.cc/sh/v3/expand, Config.glob) compiles a regular expression for
// every pattern of every word, which is most of the cost of judging `ls src/*.go`. For the
// common word that is one plain unquoted literal with "*" or "?" and nothing that quoting,
// braces, brackets or a tilde would rewrite, the expansion below does what the library does,
// step for step (the same folders read, the same order, the same errors), with a matcher that
// answers exactly like the library's regular expression. FuzzSimpleGlob and
// TestSimpleGlobMatcherAgreesWithTheLibrary hold the two to the same answers; any other word
// goes through the library.

// simpleBraces are the words a plain literal with one brace list and no glob expands to, as the
// library expands them: "{README.md,go.mod}" is README.md and go.mod, "x{,}" is x and x. A
// word with another brace, a sequence ("..") or anything simpleGlobByte does not accept goes
// through the library, whose rules for those differ from a plain cut at the commas.
func simpleBraces(w *syntax.Word) ([]string, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return nil, false
	}
	text := lit.Value
	open, close := strings.IndexByte(text, '{'), strings.IndexByte(text, '}')
	if open < 0 || close < open || strings.Count(text, "{") != 1 || strings.Count(text, "}") != 1 {
		return nil, false
	}
	body := text[open+1 : close]
	if !strings.Contains(body, ",") || strings.Contains(body, "..") || strings.ContainsAny(text, "*?") {
		return nil, false
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '{' && c != '}' && !simpleGlobByte(c) {
			return nil, false
		}
	}
	alts := strings.Split(body, ",")
	if len(alts) > maxFields {
		return nil, false
	}
	for i, alt := range alts {
		alts[i] = text[:open] + alt + text[close+1:]
	}
	return alts, true
}

// simpleGlobWord is the text of w when it is such a word.
func simpleGlobWord(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !strings.ContainsAny(lit.Value, "*?") {
		return "", false
	}
	for i := 0; i < len(lit.Value); i++ {
		if !simpleGlobByte(lit.Value[i]) {
			return "", false
		}
	}
	return lit.Value, true
}

func simpleGlobByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("._-+@%,=:/*?#^!", c) >= 0
}

// simpleGlob expands pat as the library's FieldsSeq does a word that is only pat: its matches
// in order, or pat itself when nothing matches; ok is false where the library fails.
func (e *expander) simpleGlob(pat string) ([]string, bool) {
	matches, err := e.glob(e.view.Root(), pat)
	switch {
	case err != nil:
		return nil, false
	case len(matches) == 0:
		return []string{pat}, true
	case len(matches) > maxFields:
		return nil, false
	}
	return matches, true
}

// glob is the library's Config.glob for a pattern of simple parts, with globstar, dotglob,
// nocaseglob and extglob off, as expander.config sets it up.
func (e *expander) glob(base, pat string) ([]string, error) {
	parts := strings.Split(pat, string(filepath.Separator))
	matches := []string{""}
	if filepath.IsAbs(pat) {
		matches[0] = string(filepath.Separator)
		parts = parts[1:]
	}
	for i, part := range parts {
		wantDir := i < len(parts)-1
		switch {
		case part == "", part == ".", part == "..":
			for i, dir := range matches {
				matches[i] = pathJoin2(dir, part)
			}
			continue
		case !strings.ContainsAny(part, "*?"):
			matches = e.literalPart(base, part, wantDir, matches)
			continue
		}
		match := simpleMatcher(part)
		var next []string
		for _, dir := range matches {
			var err error
			if next, err = e.globDir(base, dir, match, wantDir, next); err != nil {
				return nil, err
			}
		}
		matches = next
	}
	slices.Sort(matches)
	if len(matches) > 0 && matches[0] == "" {
		matches = matches[1:]
	}
	return matches, nil
}

// literalPart keeps the matches under which part exists (the library reads it as a folder to
// know; a file is kept unless a folder is wanted).
func (e *expander) literalPart(base, part string, wantDir bool, matches []string) []string {
	var next []string
	for _, dir := range matches {
		match := dir
		if !filepath.IsAbs(match) {
			match = filepath.Join(base, match)
		}
		match = pathJoin2(match, part)
		if _, err := e.readDir(match); err != nil {
			if errors.Is(err, syscall.ENOTDIR) {
				// a file read as a folder: it exists
			} else if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if wantDir {
				continue
			}
		}
		next = append(next, pathJoin2(dir, part))
	}
	return next
}

// globDir is the library's Config.globDir.
func (e *expander) globDir(base, dir string, match func(string) bool, wantDir bool, matches []string) ([]string, error) {
	fullDir := dir
	if !filepath.IsAbs(dir) {
		fullDir = filepath.Join(base, dir)
	}
	entries, err := e.readDir(fullDir)
	if err != nil {
		return matches, err
	}
	for _, entry := range entries {
		name := entry.Name()
		if !wantDir {
			// no filtering
		} else if mode := entry.Type(); mode&os.ModeSymlink != 0 {
			if _, err := e.readDir(filepath.Join(fullDir, name)); err != nil {
				continue
			}
		} else if !mode.IsDir() {
			continue
		}
		if match(name) {
			matches = append(matches, pathJoin2(dir, name))
		}
	}
	return matches, nil
}

// pathJoin2 is the library's.
func pathJoin2(elem1, elem2 string) string {
	if elem1 == "" {
		return elem2
	}
	if strings.HasSuffix(elem1, string(filepath.Separator)) {
		return elem1 + elem2
	}
	return elem1 + string(filepath.Separator) + elem2
}

// globToken is one element of a compiled simple pattern: a literal byte, "?" (one character),
// or "*" (any characters; a star that opens the pattern never starts with a dot).
type globToken struct {
	kind byte // 'c', '?', '*'
	c    byte
	// noDot: the star may match nothing, or text whose first character is not ".".
	noDot bool
}

// simpleMatcher compiles part as the library's pattern.Regexp does in file name mode: "*" at
// the very start is `([^/.][^/]*)?`, any other "*" is `[^/]*`, "**" is one star (globstar is
// off), "?" is `[^/]` (a leading dot included), and characters are matched as the regular
// expression reads text: by UTF-8 character, an invalid byte counting as one.
func simpleMatcher(part string) func(string) bool {
	toks := make([]globToken, 0, len(part))
	for i := 0; i < len(part); i++ {
		switch c := part[i]; c {
		case '*':
			first := i == 0
			if i+1 < len(part) && part[i+1] == '*' {
				i++
			}
			toks = append(toks, globToken{kind: '*', noDot: first})
		case '?':
			toks = append(toks, globToken{kind: '?'})
		default:
			toks = append(toks, globToken{kind: 'c', c: c})
		}
	}
	return func(name string) bool { return matchTokens(toks, name) }
}

// matchTokens matches name against toks by UTF-8 character, trying longer matches for the
// latest star only, which is complete for "*" and "?" and bounded by len(toks)·len(name).
func matchTokens(toks []globToken, name string) bool {
	if len(toks) > 0 && toks[0].noDot && strings.HasPrefix(name, ".") {
		toks = toks[1:] // the leading star can only match nothing here
	}
	ti, ni := 0, 0
	starT, starN := -1, 0
	for ni < len(name) {
		if ti < len(toks) {
			switch t := toks[ti]; {
			case t.kind == '*':
				starT, starN = ti, ni
				ti++
				continue
			case t.kind == '?':
				_, size := utf8.DecodeRuneInString(name[ni:])
				ni += size
				ti++
				continue
			case name[ni] == t.c:
				ni++
				ti++
				continue
			}
		}
		if starT < 0 {
			return false
		}
		_, size := utf8.DecodeRuneInString(name[starN:]) // the star takes one more character
		starN += size
		ti, ni = starT+1, starN
	}
	for ti < len(toks) && toks[ti].kind == '*' {
		ti++
	}
	return ti == len(toks)
}
