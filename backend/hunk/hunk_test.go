package hunk

import (
	"fmt"
	"strings"
	"testing"

	"agentdesk/backend/errs"
)

func numbered(n int, edit map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := edit[i]; ok {
			b.WriteString(s)
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// Three changes far apart are three hunks; any subset of them applies forward onto the old
// version and backward onto the new one, and the two directions agree.
func TestEverySubsetAppliesAndRevertsExactly(t *testing.T) {
	before := numbered(40, nil)
	after := numbered(40, map[int]string{3: "line three\n", 20: "", 35: "line 35\nan added line\n"})
	hunks := Diff(before, after)
	if len(hunks) != 3 {
		t.Fatalf("%d hunks: %+v", len(hunks), hunks)
	}
	for mask := 0; mask < 8; mask++ {
		var pick, rest []int
		for i := range 3 {
			if mask&(1<<i) != 0 {
				pick = append(pick, i)
			} else {
				rest = append(rest, i)
			}
		}
		forward, err := Apply(before, hunks, pick, false)
		if err != nil {
			t.Fatalf("apply %v: %v", pick, err)
		}
		// Reverting the others from the new version gives the same file.
		backward, err := Apply(after, hunks, rest, true)
		if err != nil {
			t.Fatalf("revert %v: %v", rest, err)
		}
		if forward != backward {
			t.Fatalf("subset %v: forward\n%s\nbackward\n%s", pick, forward, backward)
		}
	}
	if all, _ := Apply(before, hunks, []int{2, 0, 1}, false); all != after {
		t.Fatal("applying every hunk must give the new version")
	}
}

// A revert still applies when the file moved on elsewhere (lines added above it), and refuses
// when its own lines were changed since.
func TestRevertFindsItsLinesOrRefuses(t *testing.T) {
	before := numbered(30, nil)
	after := numbered(30, map[int]string{20: "line twenty\n"})
	hunks := Diff(before, after)
	moved := "a new first line\nanother\n" + after
	got, err := Apply(moved, hunks, []int{0}, true)
	if err != nil || got != "a new first line\nanother\n"+before {
		t.Fatalf("revert after lines were added above: %v\n%s", err, got)
	}
	changed := strings.Replace(after, "line twenty\n", "line 20, rewritten by hand\n", 1)
	if _, err := Apply(changed, hunks, []int{0}, true); errs.KindOf(err) != Conflict {
		t.Fatalf("a revert of lines changed since must conflict: %v", err)
	}
	if _, err := Apply(after, hunks, []int{1}, true); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("a hunk that does not exist: %v", err)
	}
}

// Files without a final newline, created from nothing or emptied, keep their bytes exactly.
func TestEdgesOfFiles(t *testing.T) {
	cases := [][2]string{
		{"", "new file\nwith two lines"},
		{"only line", ""},
		{"a\nb", "a\nb\n"},
		{"a\nb\n", "a\nc"},
		{"x\r\ny\r\n", "x\r\nz\r\n"},
	}
	for _, c := range cases {
		hunks := Diff(c[0], c[1])
		if len(hunks) == 0 {
			t.Fatalf("%q -> %q: no hunks", c[0], c[1])
		}
		all := make([]int, len(hunks))
		for i := range all {
			all[i] = i
		}
		if got, err := Apply(c[0], hunks, all, false); err != nil || got != c[1] {
			t.Errorf("%q -> %q: applied %q %v", c[0], c[1], got, err)
		}
		if got, err := Apply(c[1], hunks, all, true); err != nil || got != c[0] {
			t.Errorf("%q -> %q: reverted %q %v", c[0], c[1], got, err)
		}
	}
}

func TestPatchReadsAsAUnifiedDiff(t *testing.T) {
	hunks := Diff("a\nb\nc\n", "a\nB\nc")
	got := Patch("f.txt", hunks, []int{0})
	want := "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+c\n\\ No newline at end of file\n"
	if got != want {
		t.Fatalf("patch:\n%s\nwant:\n%s", got, want)
	}
}

// A hunk cut short by the file's end goes only at the end: when two versions each appended to
// the same file, the second append does not go after the first, it is a conflict; a person's own
// line added above still lets it go.
func TestAHunkAtTheEndOfAFileGoesOnlyAtTheEnd(t *testing.T) {
	base := numbered(6, nil)
	hunks := Diff(base, base+"appended by b\n")
	if _, err := Apply(base+"appended by a\n", hunks, []int{0}, false); errs.KindOf(err) != Conflict {
		t.Fatalf("a second append went in: %v", err)
	}
	edited := numbered(6, map[int]string{1: "the person's line 1\n"})
	if got, err := Apply(edited, hunks, []int{0}, false); err != nil || got != edited+"appended by b\n" {
		t.Fatalf("with the person's edit above: %q %v", got, err)
	}
	start := Diff(base, "prepended\n"+base)
	if _, err := Apply("someone else's first line\n"+base, start, []int{0}, false); errs.KindOf(err) != Conflict {
		t.Fatalf("a prepend went below another: %v", err)
	}
}
