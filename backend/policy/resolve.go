package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// Scripts records the content of the files a bash command runs as code (scripts.go).
	Scripts string
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
		v := NewView(ws)
		sh := AnalyzeShell(call.Command, v)
		r.Shell, r.Scripts = &sh, scriptDigests(v, &sh)
	}
	if !call.Kind.HasPath() {
		return r, nil
	}
	t, err := newResolver(ws).target(call.Path)
	r.Target = protectPlanted(call.Kind, t)
	return r, err
}

// osView is the real file system as the shell analysis sees it from the workspace.
type osView struct {
	r    *resolver
	home string
	dirs map[string][]fs.DirEntry
}

// NewView is the View of the real file system from ws: globs list real folders, and words
// resolve exactly like file tool paths (symbolic links followed, .git and the data folder
// marked). A workspace that cannot be resolved resolves nothing. A view serves one decision:
// it remembers the links it followed, so the many words of one command share the work.
func NewView(ws Workspace) View {
	home, err := os.UserHomeDir()
	if err != nil {
		home = "/nonexistent-home"
	}
	return osView{r: newResolver(ws), home: home, dirs: map[string][]fs.DirEntry{}}
}

func (v osView) Root() string { return v.r.ws.Root }
func (v osView) Home() string { return v.home }

// ReadDir lists dir once per decision: the expander may ask for a folder more than once.
func (v osView) ReadDir(dir string) ([]fs.DirEntry, error) {
	if entries, ok := v.dirs[dir]; ok {
		return entries, nil
	}
	v.r.open()
	entries, err := os.ReadDir(dir)
	if err == nil {
		v.dirs[dir] = entries
		v.r.seedListing(filepath.Clean(dir), entries)
	}
	return entries, err
}

func (v osView) Resolve(p string) Target {
	t, err := v.r.target(p)
	if err != nil {
		return Target{}
	}
	return t
}

// resolver resolves paths against one workspace: the real workspace root and data folder are
// found once, and every symlink prefix it follows is remembered for the rest of its life.
type resolver struct {
	ws         Workspace
	root, data string
	err        error
	real       map[string]string
	opened     bool
}

func newResolver(ws Workspace) *resolver {
	return &resolver{ws: ws, real: map[string]string{}}
}

// open finds the real root and data folder, once and only when a path is first resolved or
// listed: a command that names no path (true, pwd) needs none of it.
func (r *resolver) open() {
	if r.opened {
		return
	}
	r.opened = true
	if r.ws.Root == "" {
		r.err = errors.New("policy: workspace root and path are required")
		return
	}
	if r.root, r.err = r.anchor(r.ws.Root); r.err != nil {
		return
	}
	if r.ws.DataDir != "" {
		r.data, r.err = r.anchor(r.ws.DataDir)
	}
}

// anchors remembers the real path of each workspace root and data folder across decisions,
// with the identity of the folder it names: walking every component of a deep root costs a
// system call each, on every gate decision.
var anchors sync.Map // string → anchor

type anchor struct {
	real string
	id   fileID
}

type fileID struct{ dev, ino uint64 }

// anchor is the real path of a root or data folder. A remembered one is used only while the
// path and the remembered real path still reach the same folder (two stat calls; one when the
// path is its own real path); otherwise, or where a file's identity is unknown, the path is
// resolved again.
func (r *resolver) anchor(p string) (string, error) {
	if a, ok := anchors.Load(p); ok {
		a := a.(anchor)
		if id, ok := statID(p); ok && id == a.id && (a.real == p || sameID(a.real, a.id)) {
			r.real[p] = a.real
			return a.real, nil
		}
	}
	real, err := r.realPath(p)
	if err != nil {
		return "", err
	}
	if id, known := statID(real); known {
		anchors.Store(p, anchor{real: real, id: id})
	}
	return real, nil
}

func sameID(p string, id fileID) bool {
	now, ok := statID(p)
	return ok && now == id
}

// seedListing records the entries of a listed folder that are not links: their real path is
// the folder's, so resolving them later needs no system call.
func (r *resolver) seedListing(dir string, entries []fs.DirEntry) {
	real, ok := r.real[dir]
	if !ok || hasDotSegment(dir) {
		return
	}
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink == 0 {
			r.real[dir+string(filepath.Separator)+e.Name()] = real + string(filepath.Separator) + e.Name()
		}
	}
}

// target resolves p, relative to the workspace root unless absolute (R-GATE-4).
func (r *resolver) target(p string) (Target, error) {
	r.open()
	if r.err != nil {
		return Target{}, r.err
	}
	if p == "" {
		return Target{}, errors.New("policy: workspace root and path are required")
	}
	if !filepath.IsAbs(p) {
		p = r.ws.Root + string(filepath.Separator) + p
	}
	abs, err := r.realPath(dropDotSegments(p))
	if err != nil {
		return Target{}, err
	}
	t := Target{Resolved: true, Path: abs}
	if rel, ok := within(r.root, abs); ok {
		t.Inside, t.Rel = true, filepath.ToSlash(rel)
		if hasGitComponent(rel) {
			t.Protected = ProtectedGit
		}
	}
	if r.data != "" {
		if _, ok := within(r.data, abs); ok {
			t.Protected = ProtectedData
		}
	}
	return t, nil
}

// within reports whether p is base or below it, with the relative path.
func within(base, p string) (string, bool) {
	if p == base {
		return ".", true
	}
	sep := string(filepath.Separator)
	if base != sep && isBelow(p, base) && plainRel(p[len(base)+1:]) {
		return p[len(base)+1:], true // what Rel gives for a clean base and a plain rest, without its work
	}
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// isBelow reports p inside dir, dir excluded, as a string prefix: no concatenation, which
// allocates for a long dir.
func isBelow(p, dir string) bool {
	return len(p) > len(dir) && p[len(dir)] == filepath.Separator && strings.HasPrefix(p, dir)
}

// plainRel reports a relative path that filepath.Clean leaves as it is and that holds no "."
// or ".." element: names joined by single separators.
func plainRel(s string) bool {
	if s == "" {
		return false
	}
	for {
		i := strings.IndexByte(s, filepath.Separator)
		part := s
		if i >= 0 {
			part = s[:i]
		}
		if part == "" || part == "." || part == ".." {
			return false
		}
		if i < 0 {
			return true
		}
		s = s[i+1:]
	}
}

// hasGitComponent reports a ".git" path component in any letter case, since case-insensitive
// file systems would open .GIT/config as .git/config.
func hasGitComponent(rel string) bool {
	for part := range strings.SplitSeq(rel, string(filepath.Separator)) {
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
func (r *resolver) realPath(p string) (string, error) {
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		p = abs
	}
	return r.follow(p, 0)
}

// evalSymlinks is filepath.EvalSymlinks of an existing p (mode is its Lstat's type), remembered:
// within one decision a prefix resolves once, and the words of a command share their folders.
func (r *resolver) evalSymlinks(p string, mode fs.FileMode) (string, error) {
	if real, ok := r.real[p]; ok {
		return real, nil
	}
	real, err := r.evalUncached(p, mode)
	if err == nil {
		r.real[p] = real
	}
	return real, err
}

// evalUncached resolves a plain entry through its (remembered) parent folder; a link, and a path
// with "." or ".." in it (whose meaning depends on the links before them), the standard way.
func (r *resolver) evalUncached(p string, mode fs.FileMode) (string, error) {
	parent, base := filepath.Split(p)
	parent = strings.TrimSuffix(parent, string(filepath.Separator))
	if mode&os.ModeSymlink != 0 || parent == "" || base == "" || hasDotSegment(p) {
		return filepath.EvalSymlinks(p)
	}
	real, ok := r.real[parent]
	if !ok {
		pmode, err := r.lstat(parent)
		if err != nil {
			return "", err
		}
		if real, err = r.evalSymlinks(parent, pmode); err != nil {
			return "", err
		}
	}
	if real == parent && len(p) == len(parent)+1+len(base) {
		return p, nil // no link on the way: p is its own real path
	}
	if real == string(filepath.Separator) {
		return real + base, nil
	}
	return real + string(filepath.Separator) + base, nil // Join's answer: real is clean, base a plain name
}

// lstat is the type of what p names, not following a final link.
func (r *resolver) lstat(p string) (fs.FileMode, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return 0, err
	}
	return info.Mode().Type(), nil
}

// dropDotSegments removes "." elements and doubled separators: unlike "..", they name the same
// folder whatever links come before them, so removing them changes no answer and spares the
// full symlink walk a path with a dot segment needs.
func dropDotSegments(p string) string {
	sep := string(filepath.Separator)
	if !strings.Contains(p, sep+"."+sep) && !strings.HasSuffix(p, sep+".") && !strings.Contains(p, sep+sep) {
		return p
	}
	parts := strings.Split(p, sep)
	kept := parts[:1]
	last := len(parts) - 1
	for i, part := range parts[1:] {
		if part != "." && (part != "" || i+1 == last) {
			kept = append(kept, part) // a trailing separator stays: "dir/" must be a folder
		}
	}
	if len(kept) == 1 && kept[0] == "" {
		return sep
	}
	return strings.Join(kept, sep)
}

// hasDotSegment reports a "." or ".." path element.
func hasDotSegment(p string) bool { return hasSegment(p, ".") || hasSegment(p, "..") }

func (r *resolver) follow(p string, depth int) (string, error) {
	if depth > maxLinks {
		return "", errors.New("policy: too many levels of symbolic links")
	}
	sep := string(filepath.Separator)
	vol := filepath.VolumeName(p)
	// The longest existing prefix first: prefix and rest are p cut at ever earlier separators.
	prefix, rest := p, ""
	for {
		key := prefix
		if key == vol {
			key += sep
		}
		if real, ok := r.real[key]; ok {
			return r.under(real, rest, depth)
		}
		if mode, err := r.lstat(key); err == nil {
			real, err := r.evalSymlinks(key, mode)
			if err != nil && mode&os.ModeSymlink != 0 {
				return r.followDangling(key, rest, depth)
			}
			if err != nil {
				return "", err
			}
			return r.under(real, rest, depth)
		}
		i := strings.LastIndex(prefix, sep)
		if i < len(vol) {
			return filepath.Clean(p), nil
		}
		rest = joinRest(prefix[i+1:], rest)
		prefix = prefix[:i]
	}
}

func joinRest(part, rest string) string {
	if rest == "" {
		return part
	}
	return part + string(filepath.Separator) + rest
}

// under is the not-yet-existing rest below a resolved folder.
func (r *resolver) under(real, rest string, depth int) (string, error) {
	if rest == "" {
		return real, nil
	}
	joined := filepath.Join(real, rest)
	if hasSegment(rest, "..") {
		// "missing/../link" cleans to a path that may exist and hold a symlink: go again.
		return r.follow(joined, depth+1)
	}
	return joined, nil
}

// hasSegment reports a path element equal to seg.
func hasSegment(p, seg string) bool {
	for part := range strings.SplitSeq(p, string(filepath.Separator)) {
		if part == seg {
			return true
		}
	}
	return false
}

// followDangling resolves a symlink whose target does not exist (yet): writing through it would
// create the target, so the target is where the call really goes.
func (r *resolver) followDangling(link, rest string, depth int) (string, error) {
	target, err := os.Readlink(link)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		parent, err := r.follow(filepath.Dir(link), depth+1)
		if err != nil {
			return "", err
		}
		target = parent + string(filepath.Separator) + target
	}
	return r.follow(joinRest(target, rest), depth+1)
}
