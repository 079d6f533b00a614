package policy

import (
	"path"
	"strings"

	"agentdesk/backend/glob"
)

// matchGlob reports whether the slash-separated name matches pattern:
//   - segments match with path.Match ("*", "?", "[…]" never cross a "/");
//   - a "**" segment matches any number of segments, none included;
//   - a pattern without "/" matches a name at any depth (like .gitignore): "*.env" is "**/*.env";
//   - a pattern that matches a directory matches everything below it: "secrets" covers
//     "secrets/a.txt".
//
// A malformed pattern returns an error; callers decide which way that fails. It is an error
// only where the segments before the malformed one reach a segment of name to hold it
// against, as when the rules were first matched one segment at a time; past that point
// nothing matches.
func matchGlob(pattern, name string) (bool, error) {
	pattern = strings.TrimSuffix(pattern, "/")
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	pat := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	segs := strings.Split(strings.TrimPrefix(name, "/"), "/")
	for k, seg := range pat {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			if first, _, _ := glob.Match(pat[:k], segs, segmentMatch); first >= 0 && first < len(segs) {
				return false, err
			}
			return false, nil
		}
	}
	first, _, _ := glob.Match(pat, segs, segmentMatch)
	return first >= 0, nil
}

// segmentMatch is path.Match on a segment the caller has validated.
func segmentMatch(pattern, name string) bool {
	ok, _ := path.Match(pattern, name)
	return ok
}
