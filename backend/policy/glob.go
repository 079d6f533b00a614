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
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	pat := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	segs := strings.Split(strings.TrimPrefix(name, "/"), "/")
	return matchSegments(pat, segs)
}

// matchSegments reports whether pat matches segs or a leading part of it (a directory).
func matchSegments(pat, segs []string) (bool, error) {
	if len(pat) == 0 {
		return true, nil
	}
	if pat[0] == "**" {
		for skip := 0; skip <= len(segs); skip++ {
			if ok, err := matchSegments(pat[1:], segs[skip:]); ok || err != nil {
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
	return matchSegments(pat[1:], segs[1:])
}
