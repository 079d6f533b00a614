package policy

import (
	"path"
	"strings"
)

// matchGlob reports whether the slash-separated name matches pattern:
//   - segments match with path.Match ("*", "?", "[…]" never cross a "/");
//   - a "**" segment matches any number of segments, none included;
//   - a pattern without "/" matches a name at any depth (like .gitignore): "*.env" is "**/*.env";
//   - a pattern that matches a directory matches everything below it: "secrets" covers
//     "secrets/a.txt".
//
// A malformed pattern returns an error; callers decide which way that fails.
func matchGlob(pattern, name string) (bool, error) {
	pattern = strings.TrimSuffix(pattern, "/")
	name = strings.TrimPrefix(name, "/")
	if !strings.Contains(pattern, "/") {
		return matchDoubleStar(pattern, true, name, true)
	}
	return matchSegments(strings.TrimPrefix(pattern, "/"), true, name, true)
}

// The segment lists below are slash-separated strings read one segment at a time, as
// strings.Split would cut them (an empty string is one empty segment), without building them:
// a list is (s, ok), and ok false is the empty list.

// matchSegments reports whether pat matches name or a leading part of it (a directory).
func matchSegments(pat string, patOK bool, name string, nameOK bool) (bool, error) {
	if !patOK {
		return true, nil
	}
	seg, rest, more := cutSegment(pat)
	if seg == "**" {
		return matchDoubleStar(rest, more, name, nameOK)
	}
	if !nameOK {
		return false, nil
	}
	first, nameRest, nameMore := cutSegment(name)
	ok, err := path.Match(seg, first)
	if !ok || err != nil {
		return false, err
	}
	return matchSegments(rest, more, nameRest, nameMore)
}

// matchDoubleStar is a "**" segment followed by pat: any number of name's segments, none
// included, then pat.
func matchDoubleStar(pat string, patOK bool, name string, nameOK bool) (bool, error) {
	for {
		if ok, err := matchSegments(pat, patOK, name, nameOK); ok || err != nil {
			return ok, err
		}
		if !nameOK {
			return false, nil
		}
		_, name, nameOK = cutSegment(name)
	}
}

func cutSegment(s string) (seg, rest string, more bool) {
	i := strings.IndexByte(s, '/')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
