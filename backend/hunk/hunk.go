// Package hunk splits the change between two versions of a text file into hunks, and applies or
// reverts any subset of them, so a person can accept or undo an agent's change piece by piece.
//
// The diff is github.com/aymanbagabas/go-udiff, a maintained export of the Go team's own diff
// (gopls' internal/diff, Myers' algorithm over lines) that charmbracelet/crush uses for the same
// purpose: it gives line edits and hunks with context directly. pmezard/go-difflib, the other
// candidate already in the module graph, is a port of Python's difflib that has been archived
// upstream since 2019 and produces the longest-matching-block diff rather than a minimal one.
//
// Hunks are computed from the two stored versions, never from the file as it is now, so their
// numbering is stable: "hunk 2 of a.txt in this turn" means the same lines whenever it is asked.
// Applying one to the file as it is now finds the lines it expects (exactly, nearest the place
// the diff says) and refuses with Conflict when they are not there.
package hunk

import (
	"bytes"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"agentdesk/backend/errs"
)

// Context is how many unchanged lines surround each hunk.
const Context = 3

// Conflict: the lines a hunk changes are no longer in the file as the hunk expects them.
const Conflict errs.Kind = "HUNK_CONFLICT"

// Kinds of a Line.
const (
	Equal  = "ctx"
	Insert = "add"
	Delete = "del"
)

// Line is one line of a hunk with its end of line (none on a last line without one), and its
// 1-based number in the old and the new version (0 where it has none).
type Line struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	Old  int    `json:"old,omitempty"`
	New  int    `json:"new,omitempty"`
}

// Hunk is one run of changes with its context. Starts are 1-based; a side with no lines names
// the line before which it would go.
type Hunk struct {
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	Lines    []Line `json:"lines"`
}

// Diff is the change from before to after as hunks; none when they are equal.
func Diff(before, after string) []Hunk {
	if before == after {
		return nil
	}
	u, err := udiff.ToUnifiedDiff("a", "b", before, udiff.Lines(before, after), Context)
	if err != nil {
		return nil // edits computed from before itself always fit it
	}
	out := make([]Hunk, 0, len(u.Hunks))
	for _, h := range u.Hunks {
		out = append(out, convert(h))
	}
	return out
}

func convert(h *udiff.Hunk) Hunk {
	out := Hunk{OldStart: h.FromLine, NewStart: h.ToLine}
	old, now := h.FromLine, h.ToLine
	for _, l := range h.Lines {
		switch l.Kind {
		case udiff.Equal:
			out.Lines = append(out.Lines, Line{Kind: Equal, Text: l.Content, Old: old, New: now})
			old, now = old+1, now+1
		case udiff.Delete:
			out.Lines = append(out.Lines, Line{Kind: Delete, Text: l.Content, Old: old})
			old++
		case udiff.Insert:
			out.Lines = append(out.Lines, Line{Kind: Insert, Text: l.Content, New: now})
			now++
		}
	}
	out.OldLines, out.NewLines = old-h.FromLine, now-h.ToLine
	return out
}

// sides are a hunk's lines as they read before (from) and after (to) applying it; reversed,
// the other way round.
func (h Hunk) sides(reverse bool) (from, to []string, start int) {
	drop, keep, start := Insert, Delete, h.OldStart
	if reverse {
		drop, keep, start = Delete, Insert, h.NewStart
	}
	for _, l := range h.Lines {
		if l.Kind != drop {
			from = append(from, l.Text)
		}
		if l.Kind != keep {
			to = append(to, l.Text)
		}
	}
	return from, to, start
}

// Apply applies the hunks at the indexes pick (ascending or not) to content; reverse undoes
// them instead (content is then a version after them). Every other hunk is left as content has
// it. A hunk whose lines content does not hold is a Conflict, and nothing is applied.
func Apply(content string, hunks []Hunk, pick []int, reverse bool) (string, error) {
	lines := split(content)
	chosen, err := ordered(hunks, pick)
	if err != nil {
		return "", err
	}
	out := make([]string, 0, len(lines))
	// next: the first line of content not yet copied; drift: how far from where the diff put it
	// the last hunk was found (lines someone added or removed above), a guess for the next.
	next, drift := 0, 0
	for _, i := range chosen {
		from, to, start := hunks[i].sides(reverse)
		at, ok := hunks[i].place(lines, from, start-1+drift, next)
		if !ok {
			return "", errs.New(Conflict, "Hunk", i+1)
		}
		out = append(append(out, lines[next:at]...), to...)
		next = at + len(from)
		drift = at - (start - 1)
	}
	return strings.Join(append(out, lines[next:]...), ""), nil
}

// ordered checks the indexes and sorts them by position in the file.
func ordered(hunks []Hunk, pick []int) ([]int, error) {
	seen := make([]bool, len(hunks))
	for _, i := range pick {
		if i < 0 || i >= len(hunks) {
			return nil, errs.Invalid("hunk", fmt.Sprint(i+1), []string{fmt.Sprintf("1–%d", len(hunks))})
		}
		seen[i] = true
	}
	var out []int
	for i, s := range seen {
		if s {
			out = append(out, i)
		}
	}
	return out, nil
}

// place is where the hunk's lines from go in lines (at or after min, nearest to at). A hunk with
// less context than Context on a side was cut there by the file's start or end, so, as git
// apply does, it only goes at the start or end: two tasks that each appended to a file do not
// both go, one after the other.
func (h Hunk) place(lines, from []string, at, min int) (int, bool) {
	lead, trail := h.context()
	atStart, atEnd := lead < Context && min == 0, trail < Context
	switch {
	case atStart && atEnd:
		return 0, len(lines) == len(from) && matches(lines, from, 0)
	case atStart:
		return 0, matches(lines, from, 0)
	case atEnd:
		end := len(lines) - len(from)
		return end, end >= min && matches(lines, from, end)
	}
	return find(lines, from, at, min)
}

// context counts the unchanged lines before the hunk's first change and after its last.
func (h Hunk) context() (lead, trail int) {
	for _, l := range h.Lines {
		if l.Kind != Equal {
			break
		}
		lead++
	}
	for i := len(h.Lines) - 1; i >= 0 && h.Lines[i].Kind == Equal; i-- {
		trail++
	}
	return lead, trail
}

// find is where want starts in lines at or after min, nearest to at.
func find(lines, want []string, at, min int) (int, bool) {
	for d := 0; ; d++ {
		lo, hi := at-d, at+d
		if lo < min && hi+len(want) > len(lines) {
			return 0, false
		}
		if lo >= min && matches(lines, want, lo) {
			return lo, true
		}
		if d > 0 && hi >= min && matches(lines, want, hi) {
			return hi, true
		}
	}
}

func matches(lines, want []string, at int) bool {
	if at < 0 || at+len(want) > len(lines) {
		return false
	}
	for i, w := range want {
		if lines[at+i] != w {
			return false
		}
	}
	return true
}

// split cuts text into lines that keep their "\n"; a last line without one stays so.
func split(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Patch renders the hunks at pick as a unified diff of path, for a person or a model to read.
func Patch(path string, hunks []Hunk, pick []int) string {
	chosen, err := ordered(hunks, pick)
	if err != nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
	for _, i := range chosen {
		h := hunks[i]
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		for _, l := range h.Lines {
			mark := map[string]string{Equal: " ", Insert: "+", Delete: "-"}[l.Kind]
			b.WriteString(mark + l.Text)
			if !strings.HasSuffix(l.Text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

// IsText reports content that hunks can describe: no NUL byte in its first 8000 bytes (git's
// own test for binary files).
func IsText(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) < 0
}
