package tool

import (
	"errors"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"agentdesk/backend/glob"
)

// maxBraceGroups bounds "{…}" groups: doublestar tries a group's alternatives by matching the
// rest of the segment once for each, so groups multiply and "{a,b}{c,d}…" would explode.
const maxBraceGroups = 8

// globPattern is a compiled glob: a static folder to walk from and the pattern below it.
type globPattern struct {
	// base is the pattern's leading part without wildcards: the folder the walk starts at and
	// the path the gate sees. "." when the pattern starts with a wildcard.
	base string
	// segs is the rest, split into "/" segments. Empty when the pattern has no wildcard at all
	// and names base itself.
	segs []string
	// dirsOnly is set by a trailing "/": the pattern lists folders instead of files.
	dirsOnly bool
}

// compileGlob splits pattern at the last "/" before its first wildcard and checks the rest.
// Syntax: doublestar's within a segment ("*", "?", "[…]", "{a,b}", "\" escapes) and "**" as a
// whole segment for any number of folders (none included).
func compileGlob(pattern string) (globPattern, error) {
	gp := globPattern{}
	if len(pattern) > 1 && strings.HasSuffix(pattern, "/") {
		gp.dirsOnly, pattern = true, strings.TrimRight(pattern, "/")
	}
	if !strings.ContainsAny(pattern, `*?[{\`) {
		gp.base = pattern
		return gp, nil
	}
	base, rest := doublestar.SplitPattern(pattern)
	if !doublestar.ValidatePattern(rest) {
		return gp, errors.New("malformed pattern")
	}
	if err := checkBraces(rest); err != nil {
		return gp, err
	}
	gp.base = base
	for _, seg := range strings.Split(rest, "/") {
		// Empty segments and runs of "**" mean what one would, and would only slow matching.
		if seg != "" && (seg != "**" || len(gp.segs) == 0 || gp.segs[len(gp.segs)-1] != "**") {
			gp.segs = append(gp.segs, seg)
		}
	}
	return gp, nil
}

// checkBraces bounds the "{…}" groups and keeps each within a segment, where it is matched.
func checkBraces(p string) error {
	groups, depth := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if groups, depth = groups+1, depth+1; groups > maxBraceGroups {
				return errors.New("too many {…} groups")
			}
		case '}':
			depth--
		case '/':
			if depth > 0 {
				return errors.New(`a {…} group cannot hold "/"; use one pattern per folder`)
			}
		}
	}
	return nil
}

// match reports whether segs (a path below base) matches the pattern, and whether something
// below segs still could, so the walk can skip folders that cannot match.
func (gp globPattern) match(segs []string) (match, deeper bool) {
	return matchSegments(gp.segs, segs)
}

func matchSegments(pat, segs []string) (match, deeper bool) {
	_, match, deeper = glob.Match(pat, segs, doublestar.MatchUnvalidated)
	return match, deeper
}
