package glob

import (
	"path"
	"strings"
	"testing"
)

func segmentMatch(p, s string) bool {
	ok, _ := path.Match(p, s)
	return ok
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pat, name    string
		first        int
		full, deeper bool
	}{
		{"a/*.go", "a/x.go", 2, true, false},
		{"a", "a/b/c", 1, false, false},
		{"**/x", "a/x/y", 2, false, true},
		{"**", "a/b", 0, true, true},
		{"a/**/b", "a", -1, false, true},
		{"a/**/b", "c/d", -1, false, false},
		{"*/", "a/", 2, true, false},
	}
	for _, c := range cases {
		first, full, deeper := Match(strings.Split(c.pat, "/"), strings.Split(c.name, "/"), segmentMatch)
		if first != c.first || full != c.full || deeper != c.deeper {
			t.Errorf("Match(%q, %q) = %d %v %v, want %d %v %v", c.pat, c.name, first, full, deeper, c.first, c.full, c.deeper)
		}
	}
}

// The automaton keeps a set of positions, so "**" repeated costs linear time, not exponential.
func TestMatchHasNoExponentialBacktracking(t *testing.T) {
	pat := strings.Split(strings.Repeat("**/a/", 20)+"b", "/")
	segs := strings.Split(strings.Repeat("a/", 60)+"c", "/")
	if first, full, _ := Match(pat, segs, segmentMatch); first >= 0 || full {
		t.Fatal("matched")
	}
}
