package checkpoint

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"agentdesk/backend/errs"
)

// Entry is one file of a workspace as a snapshot recorded it.
type Entry struct {
	// Path is slash-separated and relative to the workspace.
	Path string `json:"p"`
	// Mode holds the type (regular or symbolic link) and the permission bits.
	Mode fs.FileMode `json:"m"`
	Size int64       `json:"s"`
	// Mtime is the modification time in nanoseconds.
	Mtime int64 `json:"t"`
	// Hash is the SHA-256 of the content; empty for a symbolic link.
	Hash string `json:"h,omitempty"`
	// Link is a symbolic link's target.
	Link string `json:"l,omitempty"`
	// Large: recorded by hash only, larger than the store keeps.
	Large bool `json:"x,omitempty"`
}

// same reports that e describes the same content as o.
func (e Entry) same(o Entry) bool {
	return e.Mode == o.Mode && e.Hash == o.Hash && e.Link == o.Link
}

// filter decides what a snapshot leaves out: .git, what .gitignore files ignore, and secrets.
// Matching every path against every pattern costs more than the walk itself, so a decision of
// the last walk is reused for a path whose rules did not change: no .gitignore above it was
// created, changed or removed, and the secret patterns are the same.
type filter struct {
	root     string
	ignored  []gitignore.Pattern
	secrets  secretPatterns
	prev     *rules
	now      *rules
	dirtyDir string // a folder whose .gitignore changed since the last walk; "" when none
}

// excludeKey records .git/info/exclude among the folders' .gitignore files.
const excludeKey = ".git/info/exclude"

// rules is what one walk decided, to be reused by the next.
type rules struct {
	secrets []string
	ignores map[string]fileSig // each folder's .gitignore as the walk found it
	skipped map[string]bool    // paths left out
}

// fileSig identifies a version of a small file; the zero value is "absent".
type fileSig struct {
	size, mtime int64
}

func newFilter(root string, secrets []string, prev *rules) *filter {
	f := &filter{root: root, secrets: compileSecrets(secrets),
		now: &rules{secrets: secrets, ignores: map[string]fileSig{}, skipped: map[string]bool{}}}
	if prev != nil && slices.Equal(prev.secrets, secrets) {
		f.prev = prev
	}
	sig := f.read(filepath.Join(root, ".git", "info", "exclude"), nil)
	f.now.ignores[excludeKey] = sig
	if f.prev != nil && sig != f.prev.ignores[excludeKey] {
		f.prev = nil
	}
	return f
}

// enter reads the .gitignore of a folder the walk enters; its patterns apply below it.
func (f *filter) enter(rel string) {
	var domain []string
	if rel != "." {
		domain = strings.Split(rel, "/")
	}
	sig := f.read(filepath.Join(f.root, filepath.FromSlash(rel), ".gitignore"), domain)
	f.now.ignores[rel] = sig
	if f.prev != nil && !f.underDirty(rel) {
		if old, seen := f.prev.ignores[rel]; !seen || old != sig {
			f.dirtyDir = rel
		}
	}
}

func (f *filter) underDirty(rel string) bool {
	return f.dirtyDir != "" && (f.dirtyDir == "." || rel == f.dirtyDir || strings.HasPrefix(rel, f.dirtyDir+"/"))
}

func (f *filter) read(file string, domain []string) fileSig {
	fh, err := os.Open(file)
	if err != nil {
		return fileSig{}
	}
	defer fh.Close()
	var sig fileSig
	if info, err := fh.Stat(); err == nil {
		sig = fileSig{size: info.Size(), mtime: info.ModTime().UnixNano()}
	}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f.ignored = append(f.ignored, gitignore.ParsePattern(line, domain))
	}
	return sig
}

// skip reports a path the snapshot leaves out. known says the last walk saw the path (kept).
func (f *filter) skip(rel string, dir, known bool) bool {
	out := f.decide(rel, dir, known)
	if out {
		f.now.skipped[rel] = true
	}
	return out
}

func (f *filter) decide(rel string, dir, known bool) bool {
	base := path.Base(rel)
	if base == ".git" {
		return true
	}
	if f.prev != nil && !f.underDirty(rel) {
		if f.prev.skipped[rel] {
			return true
		}
		if known {
			return false
		}
	}
	if f.secrets.match(rel, base, dir) {
		return true
	}
	return gitignore.NewMatcher(f.ignored).Match(strings.Split(rel, "/"), dir)
}

// secretPatterns are gitignore-style patterns of files never stored. A pattern without a
// slash names a file or folder at any depth, so it is matched against the base name alone
// (the folders above were matched when the walk entered them); the others go to go-git.
type secretPatterns struct {
	names    []string // globs on base names, any entry
	dirNames []string // globs on base names, folders only ("name/")
	anchored gitignore.Matcher
}

func compileSecrets(patterns []string) secretPatterns {
	var sp secretPatterns
	var anchored []gitignore.Pattern
	for _, p := range patterns {
		dirOnly := strings.HasSuffix(p, "/")
		glob := strings.TrimSuffix(p, "/")
		switch {
		case strings.Contains(glob, "/") || strings.HasPrefix(glob, "!") || strings.HasPrefix(glob, "\\"):
			anchored = append(anchored, gitignore.ParsePattern(p, nil))
		case dirOnly:
			sp.dirNames = append(sp.dirNames, glob)
		default:
			sp.names = append(sp.names, glob)
		}
	}
	sp.anchored = gitignore.NewMatcher(anchored)
	return sp
}

func (sp secretPatterns) match(rel, base string, dir bool) bool {
	for _, g := range sp.names {
		if ok, _ := path.Match(g, base); ok {
			return true
		}
	}
	if dir {
		for _, g := range sp.dirNames {
			if ok, _ := path.Match(g, base); ok {
				return true
			}
		}
	}
	return sp.anchored.Match(strings.Split(rel, "/"), dir)
}

// walked is one walk of a workspace: every entry, and those whose content must be read.
type walked struct {
	entries []Entry
	dirty   []int // indexes into entries of files with no reusable hash
	began   time.Time
	rules   *rules
}

// errTooMany stops a walk that passed Options.MaxFiles.
var errTooMany = errors.New("too many files")

// walkErr says why a walk failed: too many files, or a workspace that cannot be read.
func walkErr(err error, root string, opts Options) error {
	if errors.Is(err, errTooMany) {
		return errs.New(TooLarge, "Path", root, "Max", opts.MaxFiles)
	}
	return errs.Wrap(errs.NoWorkspace, err, "Path", root)
}

// walk lists the workspace's files, reusing prev's hash for a file that provably did not change.
// The tree is read in order (the ignore rules of a folder apply below it), then the files are
// looked up (one lstat each, the bulk of a snapshot's time) by a few goroutines at once.
func walk(root string, opts Options, prev scanned) (walked, error) {
	w := walked{began: time.Now()}
	found, err := list(root, opts, prev, &w)
	if err != nil {
		return w, err
	}
	infos := statAll(found)
	for i, c := range found {
		if infos[i] == nil {
			continue // it vanished or cannot be read: not recorded
		}
		e, ok := entryOf(c.path, c.rel, infos[i])
		if !ok {
			continue
		}
		if len(w.entries) >= opts.MaxFiles {
			return w, errTooMany
		}
		if old, seen := prev.entries[c.rel]; seen && unchanged(old, e, prev.began) {
			e.Hash, e.Large = old.Hash, old.Large
		} else if e.Mode.IsRegular() {
			w.dirty = append(w.dirty, len(w.entries))
		}
		w.entries = append(w.entries, e)
	}
	return w, nil
}

// candidate is a file the walk keeps, before it is looked up.
type candidate struct {
	path, rel string
	entry     fs.DirEntry
}

// list walks the tree in order, applying the ignore and secret rules, and returns the files
// to look up; more files than Options.MaxFiles ends it early.
func list(root string, opts Options, prev scanned, w *walked) ([]candidate, error) {
	f := newFilter(root, opts.Secrets, prev.rules)
	w.rules = f.now
	var found []candidate
	recordable := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an entry that vanished or cannot be read is not recorded
		}
		rel := relative(root, p)
		if d.IsDir() {
			_, known := prev.rules.dirs()[rel]
			if rel != "." && f.skip(rel, true, known) {
				return filepath.SkipDir
			}
			f.enter(rel)
			return nil
		}
		if _, seen := prev.entries[rel]; f.skip(rel, false, seen) {
			return nil
		}
		if t := d.Type(); t.IsRegular() || t&fs.ModeSymlink != 0 {
			if recordable++; recordable > opts.MaxFiles {
				return errTooMany
			}
		}
		found = append(found, candidate{path: p, rel: rel, entry: d})
		return nil
	})
	return found, err
}

// relative is p below root, slash-separated: WalkDir builds every path as root joined with names,
// so cutting the prefix is filepath.Rel without its cleaning.
func relative(root, p string) string {
	if p == root {
		return "."
	}
	if !strings.HasPrefix(p, root) { // a root WalkDir cleaned differently
		rel, _ := filepath.Rel(root, p)
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(strings.TrimPrefix(p[len(root):], string(filepath.Separator)))
}

// statWorkers look files up at once: each lookup is a system call that waits on the kernel.
const statWorkers = 4

// statAll is each candidate's FileInfo, nil where the lookup failed, in the candidates' order.
func statAll(found []candidate) []fs.FileInfo {
	infos := make([]fs.FileInfo, len(found))
	var wg sync.WaitGroup
	chunk := (len(found) + statWorkers - 1) / statWorkers
	for lo := 0; lo < len(found); lo += chunk {
		hi := min(lo+chunk, len(found))
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				if info, err := found[i].entry.Info(); err == nil {
					infos[i] = info
				}
			}
		})
	}
	wg.Wait()
	return infos
}

// entryOf describes a regular file or a symbolic link; anything else is not recorded.
func entryOf(p, rel string, info fs.FileInfo) (Entry, bool) {
	e := Entry{Path: rel, Mode: info.Mode() & (fs.ModeType | fs.ModePerm), Size: info.Size(), Mtime: info.ModTime().UnixNano()}
	switch {
	case info.Mode().IsRegular():
		return e, true
	case info.Mode()&fs.ModeSymlink != 0:
		link, err := os.Readlink(p)
		e.Link = link
		return e, err == nil
	}
	return Entry{}, false
}

// unchanged: same size, mode and time, and written before the last walk began (a file written
// during that walk may have changed after it was read).
func unchanged(old, now Entry, lastBegan time.Time) bool {
	if old.Mode&fs.ModeSymlink != 0 || now.Mode&fs.ModeSymlink != 0 {
		return false // a link is described by its target, read every time
	}
	return old.Size == now.Size && old.Mtime == now.Mtime && old.Mode == now.Mode && old.Hash != "" &&
		now.Mtime < lastBegan.UnixNano()
}

// dirs are the folders the walk entered (each has an entry in ignores); none without rules.
func (r *rules) dirs() map[string]fileSig {
	if r == nil {
		return nil
	}
	return r.ignores
}
