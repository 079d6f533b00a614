package tool

import (
	"errors"
	"path"
	"strings"
)

// maxAlternatives bounds brace expansion, so "{a,b}{c,d}…" cannot explode.
const maxAlternatives = 256

// globPattern is a compiled glob: a static folder to walk from and the patterns below it.
type globPattern struct {
	// base is the pattern's leading part without wildcards, as given: the folder the walk
	// starts at and the path the gate sees. "." when the pattern starts with a wildcard.
	base string
	// alts are the brace-expanded alternatives of the rest, split into "/" segments. Empty when
	// the pattern has no wildcard at all and names base itself.
	alts [][]string
	// dirsOnly is set by a trailing "/": the pattern lists folders instead of files.
	dirsOnly bool
}

// compileGlob splits pattern at its first segment with a wildcard and checks every segment.
// Syntax: path.Match per segment ("*", "?", "[…]", "\" escapes), "**" as a whole segment for
// any number of folders (none included), and "{a,b}" alternatives.
func compileGlob(pattern string) (globPattern, error) {
	gp := globPattern{}
	if len(pattern) > 1 && strings.HasSuffix(pattern, "/") {
		gp.dirsOnly, pattern = true, strings.TrimRight(pattern, "/")
	}
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs) && !hasMeta(segs[i]) {
		i++
	}
	gp.base = staticBase(segs[:i])
	if i == len(segs) {
		return gp, nil
	}
	alts, err := expandBraces(strings.Join(segs[i:], "/"))
	if err != nil {
		return gp, err
	}
	for _, alt := range alts {
		split, err := splitSegments(alt)
		if err != nil {
			return gp, err
		}
		gp.alts = append(gp.alts, split)
	}
	return gp, nil
}

func hasMeta(seg string) bool { return strings.ContainsAny(seg, `*?[{\`) }

func staticBase(segs []string) string {
	switch {
	case len(segs) == 0:
		return "."
	case len(segs) == 1 && segs[0] == "":
		return "/"
	}
	return strings.Join(segs, "/")
}

// splitSegments splits one alternative, folds runs of "**" (they mean the same and would only
// slow matching) and rejects malformed segments.
func splitSegments(alt string) ([]string, error) {
	var out []string
	for _, seg := range strings.Split(alt, "/") {
		if seg == "" {
			continue
		}
		if seg == "**" && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return nil, err
		}
		out = append(out, seg)
	}
	return out, nil
}

// expandBraces expands the first top-level "{…}" group and recurses for the rest.
func expandBraces(p string) ([]string, error) {
	open, depth := -1, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			if depth--; depth == 0 {
				return expandGroup(p[:open], p[open+1:i], p[i+1:])
			}
		}
	}
	if depth > 0 {
		return nil, errors.New("unclosed '{'")
	}
	return []string{p}, nil
}

func expandGroup(prefix, group, suffix string) ([]string, error) {
	var out []string
	for _, choice := range splitTopLevel(group) {
		more, err := expandBraces(prefix + choice + suffix)
		if err != nil {
			return nil, err
		}
		if out = append(out, more...); len(out) > maxAlternatives {
			return nil, errors.New("too many {…} alternatives")
		}
	}
	return out, nil
}

// splitTopLevel splits a brace group's body at commas outside nested groups.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts, start = append(parts, s[start:i]), i+1
			}
		}
	}
	return append(parts, s[start:])
}

// match reports whether segs (a path below base) matches one of the alternatives, and whether
// something below segs still could, so the walk can skip folders that cannot match.
func (gp globPattern) match(segs []string) (match, deeper bool) {
	for _, pat := range gp.alts {
		m, d := matchSegments(pat, segs)
		match, deeper = match || m, deeper || d
	}
	return match, deeper
}

// matchSegments runs the pattern as a small automaton over the segments: the state is the set
// of pattern positions reachable so far, so "**/a/**/b" costs len(pat)·len(segs), never the
// exponential backtracking a naive recursion has.
func matchSegments(pat, segs []string) (match, deeper bool) {
	cur := make([]bool, len(pat)+1)
	cur[0] = true
	closeStars(pat, cur)
	for _, s := range segs {
		next := make([]bool, len(pat)+1)
		alive := false
		for i, on := range cur[:len(pat)] {
			if !on {
				continue
			}
			if pat[i] == "**" {
				next[i], alive = true, true
			} else if ok, _ := path.Match(pat[i], s); ok {
				next[i+1], alive = true, true
			}
		}
		if !alive {
			return false, false
		}
		cur = next
		closeStars(pat, cur)
	}
	for _, on := range cur[:len(pat)] {
		deeper = deeper || on
	}
	return cur[len(pat)], deeper
}

// closeStars lets every reachable "**" also match zero segments.
func closeStars(pat []string, cur []bool) {
	for i := range pat {
		if cur[i] && pat[i] == "**" {
			cur[i+1] = true
		}
	}
}
