package policy

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// libraryMatch is how the library's glob matches one file name against one pattern part.
func libraryMatch(t testing.TB, part, name string) bool {
	expr, err := pattern.Regexp(part, pattern.Filenames|pattern.EntireString|pattern.NoGlobStar)
	if err != nil {
		t.Fatalf("%q: %v", part, err)
	}
	return regexp.MustCompile(expr).MatchString(name)
}

// strings of up to n symbols from alphabet
func allStrings(alphabet []string, n int) []string {
	out := []string{""}
	level := []string{""}
	for range n {
		var next []string
		for _, s := range level {
			for _, a := range alphabet {
				next = append(next, s+a)
			}
		}
		out, level = append(out, next...), next
	}
	return out
}

// Every pattern of up to four symbols against every name of up to four characters, dots,
// multi-byte and invalid UTF-8 included: the matcher answers as the library's expression does.
func TestSimpleGlobMatcherAgreesWithTheLibrary(t *testing.T) {
	patterns := allStrings([]string{"a", ".", "*", "?", "-"}, 4)
	names := allStrings([]string{"a", ".", "b", "é", "\xff"}, 4)
	for _, p := range patterns {
		if p == "" {
			continue
		}
		expr, err := pattern.Regexp(p, pattern.Filenames|pattern.EntireString|pattern.NoGlobStar)
		if err != nil {
			t.Fatal(err)
		}
		rx := regexp.MustCompile(expr)
		match := simpleMatcher(p)
		for _, n := range names {
			if n == "" {
				continue
			}
			if got, want := match(n), rx.MatchString(n); got != want {
				t.Fatalf("pattern %q, name %q: matcher %v, library %v", p, n, got, want)
			}
		}
	}
}

// The matcher stays linear where a backtracking one would not finish.
func TestSimpleGlobMatcherIsBounded(t *testing.T) {
	p := strings.Repeat("*a", 20) + "*b"
	if simpleMatcher(p)(strings.Repeat("a", 255)) {
		t.Fatal("matched a name without b")
	}
}

func FuzzSimpleGlobMatcher(f *testing.F) {
	for _, s := range [][2]string{{"*.go", "a.go"}, {"*", ".git"}, {"?git", ".git"}, {"***", ".x"}, {"**", ".x"},
		{"a*b?c", "aXbYc"}, {"*é", "xé"}, {"?", "\xff"}, {".*", ".."}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, part, name string) {
		w := parseWord(part)
		if w == nil || strings.Contains(name, "/") || name == "" {
			return
		}
		part, ok := simpleGlobWord(w) // the word as the parser read it: no NUL, for one
		if !ok || strings.Contains(part, "/") {
			return
		}
		if got, want := simpleMatcher(part)(name), libraryMatch(t, part, name); got != want {
			t.Fatalf("pattern %q, name %q: matcher %v, library %v", part, name, got, want)
		}
	})
}

// parseWord is text as the one argument of a command, or nil.
func parseWord(text string) *syntax.Word {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("x "+text), "")
	if err != nil || len(file.Stmts) != 1 {
		return nil
	}
	call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return nil
	}
	return call.Args[1]
}

// sameExpansion holds the two expansions of w to the same answer against view.
func sameExpansion(t *testing.T, view View, text string) {
	t.Helper()
	w := parseWord(text)
	if w == nil {
		return
	}
	_, glob := simpleGlobWord(w)
	_, braces := simpleBraces(w)
	if !glob && !braces {
		return
	}
	e := newExpander(view)
	got, gotOK := e.fields(w)
	want, wantOK := e.libraryFields(w)
	if gotOK != wantOK || !slices.Equal(got, want) {
		t.Fatalf("%q: expanded to %q (%v), the library gives %q (%v)", text, got, gotOK, want, wantOK)
	}
}

// FuzzSimpleGlob holds whole-word expansion, folders walked and links followed, to the library's
// against the in-memory workspace.
func FuzzSimpleGlob(f *testing.F) {
	for _, s := range []string{"*", "src/*.go", "*/*", ".*", "/e?c/*", "*/../*", "out/*", "docs/up/*", ".gi?/*",
		"./*", "//ws/*", "-*", "nope/*", "README.md/*", "inner/*", "*/", "/*/*", "**/*.go", "s*/?.go",
		"{README.md,go.mod}", "{,}", "x{,}", "{a..c,d}", "{a,b}{", "}{a,b}", "{a,{b}", "a{b,c}d,e", "{a,,b}",
		"{-a,b}", "{a=b,c}", "{#,b}", "{^,!}", "{/etc/passwd,}", ".{.,}/x", "{.git,x}/config", "{a,b}*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameExpansion(t, newMemView(), text)
	})
}

// The same, on a real folder: hidden files, links to folders and files, names like options,
// unreadable and missing folders.
func TestSimpleGlobAgreesOnARealWorkspace(t *testing.T) {
	ws, outside := freshWorkspace(t)
	for _, f := range []string{".hidden", "-rf", "é.go", "src/.x.go", "src/b.go", "deep/er/f.go", "sub/dir/x"} {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o755))
		must(t, os.WriteFile(filepath.Join(ws, f), []byte("x"), 0o644))
	}
	must(t, os.Symlink(outside, filepath.Join(ws, "out")))
	must(t, os.Symlink("src/a.go", filepath.Join(ws, "alink")))
	must(t, os.Symlink("missing", filepath.Join(ws, "dangling")))
	view := NewView(Workspace{Root: ws})
	for _, text := range []string{"*", "*/*", "*/*.go", ".*", "?*", "*/", "src/*", "src/.*", "out/*", "*/*/*",
		"deep/*/f.go", "nope/*", "README.md/*", "alink/*", "dangling/*", "-*", "*.go", "./*", "../*/*",
		"src/../*", filepath.Join(outside, "*"), "/*", "sub/*/x", "s?c/*", "**", "***", "?", "*.md",
		"{README.md,src/a.go}", "{,}", "src/{a,b}.go", "{" + outside + ",x}", "{.git,x}/config"} {
		t.Run(text, func(t *testing.T) { sameExpansion(t, view, text) })
	}
}
