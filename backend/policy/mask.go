package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// maskWalkLimit bounds the entries MaskedPaths visits in a workspace: a bash call must not wait
// on a walk of a huge tree. Past it the rest is not masked, and the gate's own path matching is
// what remains.
const maskWalkLimit = 20000

var errWalkLimit = errors.New("walk limit")

// MaskedPaths lists what the sandbox must hide from a shell command: every path a deny rule's
// path pattern matches (the topmost match of a folder, not what lies below it), so a command
// cannot read it under any spelling the gate cannot see, a script included. Relative patterns
// are matched inside the workspace (.git aside), absolute ones without glob characters as
// they are. complete is false when the walk stopped at its limit.
func MaskedPaths(rules []Rule, workspace string) (paths []string, complete bool) {
	var relative []string
	for _, r := range rules {
		switch {
		case r.Effect == Allow || r.Path == "" || r.MCP != "":
		case strings.HasPrefix(r.Path, "/"):
			if !strings.ContainsAny(r.Path, "*?[") {
				paths = append(paths, filepath.Clean(r.Path))
			}
		default:
			relative = append(relative, r.Path)
		}
	}
	if len(relative) == 0 || workspace == "" {
		return paths, true
	}
	found, err := walkMatches(workspace, relative)
	return append(paths, found...), err == nil
}

func walkMatches(workspace string, patterns []string) ([]string, error) {
	return walkTopmost(workspace, maskWalkLimit, false, func(rel string) bool { return anyGlob(patterns, rel) })
}

// walkTopmost lists the paths inside workspace that match, the topmost of a matching folder and
// not what lies below it, .git aside. With skipDownloads it does not go into dependencyDirs. It
// stops with errWalkLimit after limit entries.
func walkTopmost(workspace string, limit int, skipDownloads bool, match func(rel string) bool) ([]string, error) {
	var out []string
	seen := 0
	err := filepath.WalkDir(workspace, func(path string, d fs.DirEntry, err error) error {
		if seen++; seen > limit {
			return errWalkLimit
		}
		if err != nil || path == workspace {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, workspace+string(filepath.Separator)))
		if rel == ".git" {
			return filepath.SkipDir // read-only to commands and protected by the gate already
		}
		matched := match(rel)
		if !matched && d.IsDir() && skipDownloads && dependencyDirs[d.Name()] {
			return filepath.SkipDir
		}
		if !matched {
			return nil
		}
		out = append(out, path)
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
	return out, err
}

func anyGlob(patterns []string, rel string) bool {
	for _, p := range patterns {
		if ok, err := matchGlob(p, rel); ok || err != nil {
			return true // a malformed pattern hides rather than shows
		}
	}
	return false
}

// DeniedAt reports whether a path deny rule with an absolute pattern keeps abs from being read.
// Such a rule names a place on the host, so it would not cover a copy of the file elsewhere (a
// task's worktree): a caller copying files uses this to leave them where the rule holds. A rule
// on writes or edits only protects the original, which a copy leaves as it is.
func DeniedAt(rules []Rule, abs string) bool {
	for _, r := range rules {
		if r.Effect != Deny || r.MCP != "" || !strings.HasPrefix(r.Path, "/") || r.Kind == KindWrite || r.Kind == KindEdit {
			continue
		}
		if ok, err := matchGlob(r.Path, filepath.ToSlash(abs)); ok || err != nil {
			return true
		}
	}
	return false
}
