package policy

import (
	"path"
	"strings"
	"testing"
)

// splitMatchGlob is matchGlob as it was written first, on split segment lists: the reference
// the allocation-free one is held to.
func splitMatchGlob(pattern, name string) (bool, error) {
	pattern = strings.TrimSuffix(pattern, "/")
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	return splitSegments(strings.Split(strings.TrimPrefix(pattern, "/"), "/"), strings.Split(strings.TrimPrefix(name, "/"), "/"))
}

func splitSegments(pat, segs []string) (bool, error) {
	if len(pat) == 0 {
		return true, nil
	}
	if pat[0] == "**" {
		for skip := 0; skip <= len(segs); skip++ {
			if ok, err := splitSegments(pat[1:], segs[skip:]); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	if len(segs) == 0 {
		return false, nil
	}
	ok, err := path.Match(pat[0], segs[0])
	if !ok || err != nil {
		return false, err
	}
	return splitSegments(pat[1:], segs[1:])
}

func TestMatchGlobAgreesWithSplitSegments(t *testing.T) {
	patterns := []string{"secrets/**", "*.env", "**", "*", "", "/", "docs/**/*.md", "/abs/x", "a//b", "**/x/**", "[", "a/[", "x/",
		"**/**", ".git", "src/*/a.go", "/**", "a/**/b/**/c", "*/", "?"}
	names := []string{"", "/", "secrets/key.txt", "secrets", "a.env", "x/y/.env", "docs/a/b/c.md", "/abs/x", "/abs/x/y", "a//b",
		"a/b", "x", "x/y", "y/x/z", "src/p/a.go", "src/a.go", ".git/config", "a/q/b/r/c/s", "[", "a/["}
	for _, p := range patterns {
		for _, n := range names {
			gotOK, gotErr := matchGlob(p, n)
			wantOK, wantErr := splitMatchGlob(p, n)
			if gotOK != wantOK || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("matchGlob(%q, %q) = %v %v, split segments say %v %v", p, n, gotOK, gotErr, wantOK, wantErr)
			}
		}
	}
}

func FuzzMatchGlob(f *testing.F) {
	f.Add("secrets/**", "secrets/key.txt")
	f.Add("*.env", "a/b/.env")
	f.Add("a//b", "a//b")
	f.Fuzz(func(t *testing.T, p, n string) {
		gotOK, gotErr := matchGlob(p, n)
		wantOK, wantErr := splitMatchGlob(p, n)
		if gotOK != wantOK || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("matchGlob(%q, %q) = %v %v, split segments say %v %v", p, n, gotOK, gotErr, wantOK, wantErr)
		}
	})
}
