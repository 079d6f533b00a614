package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Workspace is what path resolution needs to know about where the agent works.
type Workspace struct {
	Root    string // the workspace folder; may itself be a symlink
	DataDir string // the app's own data folder, always protected; empty if unknown
}

// Protection says why a path is protected; "" means it is not.
type Protection string

const (
	NotProtected  Protection = ""
	ProtectedGit  Protection = "git"      // inside a .git directory
	ProtectedData Protection = "data_dir" // inside the app's data folder
)

// Target is the resolved path of a read, write or edit call (R-GATE-4).
type Target struct {
	// Resolved is false when resolution failed; the gate then asks.
	Resolved bool
	// Path is absolute, cleaned, with every symlink of its existing part followed.
	Path string
	// Rel is Path relative to the real workspace root, slash-separated; empty when outside.
	Rel       string
	Inside    bool
	Protected Protection
}

// Resolved is a call with the facts the pure gate needs.
type Resolved struct {
	Call   Call
	Target Target // for read, write and edit
	Shell  *Shell // for bash; Evaluate parses the command itself when nil
}

// maxLinks bounds symlink chains, as the kernel does (ELOOP).
const maxLinks = 40

// Resolve is the impure step before the gate: it follows the file system so that "..", symlinks
// (in the path or as the workspace root) and absolute paths cannot escape the workspace
// unnoticed. A relative call path is relative to the workspace root. When resolution fails the
// returned call still goes to Evaluate, which asks; the error says why.
func Resolve(ws Workspace, call Call) (Resolved, error) {
	r := Resolved{Call: call}
	if call.Kind == KindBash {
		sh := AnalyzeShell(call.Command, NewView(ws))
		r.Shell = &sh
	}
	if !call.Kind.HasPath() {
		return r, nil
	}
	t, err := resolveTarget(ws, call.Path)
	r.Target = t
	return r, err
}

// osView is the real file system as the shell analysis sees it from the workspace.
type osView struct {
	ws   Workspace
	home string
}

// NewView is the View of the real file system from ws: globs list real folders, and words
// resolve exactly like file tool paths (symbolic links followed, .git and the data folder
// marked). A workspace that cannot be resolved resolves nothing.
func NewView(ws Workspace) View {
	home, err := os.UserHomeDir()
	if err != nil {
		home = "/nonexistent-home"
	}
	return osView{ws: ws, home: home}
}

func (v osView) Root() string { return v.ws.Root }
func (v osView) Home() string { return v.home }

func (v osView) ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }

func (v osView) Resolve(p string) Target {
	t, err := resolveTarget(v.ws, p)
	if err != nil {
		return Target{}
	}
	return t
}

func resolveTarget(ws Workspace, p string) (Target, error) {
	if ws.Root == "" || p == "" {
		return Target{}, errors.New("policy: workspace root and path are required")
	}
	root, err := realPath(ws.Root)
	if err != nil {
		return Target{}, err
	}
	if !filepath.IsAbs(p) {
		p = ws.Root + string(filepath.Separator) + p
	}
	abs, err := realPath(p)
	if err != nil {
		return Target{}, err
	}
	t := Target{Resolved: true, Path: abs}
	if rel, ok := within(root, abs); ok {
		t.Inside, t.Rel = true, filepath.ToSlash(rel)
		if hasGitComponent(rel) {
			t.Protected = ProtectedGit
		}
	}
	if ws.DataDir != "" {
		data, err := realPath(ws.DataDir)
		if err != nil {
			return Target{}, err
		}
		if _, ok := within(data, abs); ok {
			t.Protected = ProtectedData
		}
	}
	return t, nil
}

// within reports whether p is base or below it, with the relative path.
func within(base, p string) (string, bool) {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// hasGitComponent reports a ".git" path component in any letter case, since case-insensitive
// file systems would open .GIT/config as .git/config.
func hasGitComponent(rel string) bool {
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// realPath makes p absolute and follows symlinks the way the kernel would: the longest existing
// prefix is resolved with EvalSymlinks (so "link/.." means the link target's parent, not a
// lexical no-op), a dangling symlink is followed to where a write would create its target, and
// the non-existent rest is cleaned lexically, as creating it would.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(p) {
		p = abs
	}
	return follow(p, 0)
}

func follow(p string, depth int) (string, error) {
	if depth > maxLinks {
		return "", errors.New("policy: too many levels of symbolic links")
	}
	vol := filepath.VolumeName(p)
	parts := strings.Split(p[len(vol):], string(filepath.Separator))
	for n := len(parts); n > 0; n-- {
		prefix := vol + strings.Join(parts[:n], string(filepath.Separator))
		if prefix == vol {
			prefix += string(filepath.Separator)
		}
		info, err := os.Lstat(prefix)
		if err != nil {
			continue
		}
		rest := parts[n:]
		real, err := filepath.EvalSymlinks(prefix)
		if err != nil && info.Mode()&os.ModeSymlink != 0 {
			return followDangling(prefix, rest, depth)
		}
		if err != nil {
			return "", err
		}
		joined := filepath.Join(append([]string{real}, rest...)...)
		if hasDotDot(rest) {
			// "missing/../link" cleans to a path that may exist and hold a symlink: go again.
			return follow(joined, depth+1)
		}
		return joined, nil
	}
	return filepath.Clean(p), nil
}

func hasDotDot(parts []string) bool {
	for _, part := range parts {
		if part == ".." {
			return true
		}
	}
	return false
}

// followDangling resolves a symlink whose target does not exist (yet): writing through it would
// create the target, so the target is where the call really goes.
func followDangling(link string, rest []string, depth int) (string, error) {
	target, err := os.Readlink(link)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		parent, err := follow(filepath.Dir(link), depth+1)
		if err != nil {
			return "", err
		}
		target = parent + string(filepath.Separator) + target
	}
	return follow(strings.Join(append([]string{target}, rest...), string(filepath.Separator)), depth+1)
}
