package tool

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// sniffLen is how much of a file is checked for NUL bytes, as git does to call a file binary.
const sniffLen = 8000

func noWorkspace(tool mode.Tool) error {
	return errs.New(ToolFailed, "Tool", string(tool), "Problem", "no workspace folder is set")
}

// fileError maps an operating-system error about path (as the model wrote it) to a kind.
func fileError(tool mode.Tool, path string, err error) error {
	var kinded *errs.Error
	switch {
	case errors.As(err, &kinded):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return errs.Wrap(FileNotFound, err, "Path", path)
	}
	return errs.Wrap(ToolFailed, err, "Tool", string(tool), "Problem", err.Error())
}

// isBinary reports a NUL byte in the first sniffLen bytes, without consuming them.
func isBinary(r *bufio.Reader) bool {
	head, _ := r.Peek(sniffLen)
	return bytes.IndexByte(head, 0) >= 0
}

// eachLine calls fn for every line of r without its line ending. A line longer than max bytes
// is cut at a rune boundary and cut is true; the rest of it is skipped without being buffered,
// so a minified file cannot exhaust memory. fn returns false to stop.
func eachLine(r *bufio.Reader, max int, fn func(line []byte, cut bool) bool) error {
	var buf []byte
	for {
		buf = buf[:0]
		cut, err := readLine(r, max, &buf)
		if len(buf) > 0 || cut || err == nil {
			if !fn(bytes.TrimSuffix(buf, []byte("\r")), cut) {
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine appends one line to buf without its "\n", keeping at most max bytes; err is io.EOF
// after the last line. A cut line ends at a rune boundary.
func readLine(r *bufio.Reader, max int, buf *[]byte) (cut bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		if room := max - len(*buf); len(chunk) > room {
			cut, chunk = true, chunk[:room]
		}
		*buf = append(*buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if cut {
			*buf = trimPartialRune(*buf)
		}
		return cut, err
	}
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// cutRunes shortens b to at most n bytes without splitting a UTF-8 sequence.
func cutRunes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// summary renders parameters for the approval card as "name: value" lines; a multi-line value
// starts on its own line so it reads as the text it is.
func summary(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(pairs[i])
		if strings.Contains(pairs[i+1], "\n") {
			b.WriteString(":\n")
		} else {
			b.WriteString(": ")
		}
		b.WriteString(pairs[i+1])
	}
	return b.String()
}

// fileSystem is the handful of calls the file tools make. Inside the workspace it is an os.Root,
// so the kernel walks every name from the workspace folder and refuses a symlink out of it;
// outside (a path the person approved, or Full access) it is the plain operating system.
type fileSystem interface {
	Stat(name string) (fs.FileInfo, error)
	Open(name string) (*os.File, error)
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	MkdirAll(name string, perm fs.FileMode) error
	Rename(oldname, newname string) error
	Remove(name string) error
}

// hostFS is the operating system itself, for absolute paths outside the workspace.
type hostFS struct{}

func (hostFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
func (hostFS) Open(name string) (*os.File, error)    { return os.Open(name) }
func (hostFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (hostFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (hostFS) Rename(oldname, newname string) error         { return os.Rename(oldname, newname) }
func (hostFS) Remove(name string) error                     { return os.Remove(name) }

// site is where a file tool acts, resolved at the moment it acts rather than when the gate
// looked, because an approval can wait minutes and a symlink can be swapped meanwhile.
type site struct {
	tool      mode.Tool
	workspace string
	shown     string // the path as the model wrote it, for messages
	abs       string // absolute, every symlink followed, as policy.Resolve says
	fs        fileSystem
	name      string   // abs as fs names it: relative to root inside, abs itself outside
	root      *os.Root // the real workspace folder; nil outside it
}

// locate resolves p exactly as the gate did and refuses when it no longer lands on the path the
// gate approved (env.Target). Close the site when done.
func locate(tool mode.Tool, env Env, p string) (*site, error) {
	if env.Workspace == "" {
		return unconfined(tool, env, p)
	}
	t, err := resolve(tool, env.Workspace, p)
	if err != nil {
		return nil, err
	}
	if env.Target != nil && t.Path != env.Target.Path {
		return nil, targetChanged(p, env.Target.Path, t.Path)
	}
	s := &site{tool: tool, workspace: env.Workspace, shown: p, abs: t.Path, fs: hostFS{}, name: t.Path}
	if !t.Inside {
		return s, nil
	}
	if s.root, err = os.OpenRoot(rootOf(t)); err != nil {
		return nil, s.fail(err)
	}
	s.fs, s.name = s.root, filepath.FromSlash(t.Rel)
	return s, nil
}

// unconfined serves direct callers without a workspace: an absolute path is used as given. The
// gate never approves a path without a workspace, so a Target here cannot be honoured.
func unconfined(tool mode.Tool, env Env, p string) (*site, error) {
	if !filepath.IsAbs(p) || env.Target != nil {
		return nil, noWorkspace(tool)
	}
	return &site{tool: tool, shown: p, abs: p, fs: hostFS{}, name: p}, nil
}

func resolve(tool mode.Tool, workspace, p string) (policy.Target, error) {
	r, err := policy.Resolve(policy.Workspace{Root: workspace}, policy.Call{Kind: policy.KindRead, Path: p})
	if err != nil {
		return policy.Target{}, errs.Wrap(ToolFailed, err, "Tool", string(tool), "Problem", err.Error())
	}
	return r.Target, nil
}

// rootOf is the real workspace folder t was resolved against: taken from t itself, not resolved
// again, so the root and the name below it come from one look at the file system.
func rootOf(t policy.Target) string {
	if t.Rel == "." {
		return t.Path
	}
	return filepath.Clean(t.Path[:len(t.Path)-len(filepath.FromSlash(t.Rel))])
}

func targetChanged(shown, approved, now string) error {
	return errs.New(TargetChanged, "Path", shown, "Approved", approved, "Now", now)
}

func (s *site) close() {
	if s.root != nil {
		s.root.Close()
	}
}

// fail maps an error met while acting. When the path resolves elsewhere by now, a swap after the
// check is the likely cause (os.Root refused to follow it out), and that is what the model hears.
func (s *site) fail(err error) error {
	if s.workspace != "" {
		if t, rerr := resolve(s.tool, s.workspace, s.shown); rerr == nil && t.Path != s.abs {
			return errs.Wrap(TargetChanged, err, "Path", s.shown, "Approved", s.abs, "Now", t.Path)
		}
	}
	return fileError(s.tool, s.shown, err)
}

// stat follows a final symlink, as opening would; inside, only to somewhere in the workspace.
func (s *site) stat() (fs.FileInfo, error) {
	info, err := s.fs.Stat(s.name)
	if err != nil {
		return nil, s.fail(err)
	}
	return info, nil
}

// openRegular opens the file for reading and refuses folders and devices. It checks before
// opening because opening a named pipe blocks until someone writes to it.
func (s *site) openRegular() (*os.File, error) {
	info, err := s.stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errs.New(NotAFile, "Path", s.shown)
	}
	f, err := s.fs.Open(s.name)
	if err != nil {
		return nil, s.fail(err)
	}
	return f, nil
}

// openDir opens the folder to walk as a root of its own, so a walk can never leave it: not by a
// symlinked entry, nor by one swapped in while the walk runs.
func (s *site) openDir() (*os.Root, error) {
	if s.root != nil {
		return s.root.OpenRoot(s.name)
	}
	return os.OpenRoot(s.name)
}

// put writes a write's or an edit's new content: to the session's editor when it writes the
// files (env.Files), at the path under the workspace as the editor opened it; else to disk.
func (s *site) put(ctx context.Context, env Env, data []byte, perm fs.FileMode) error {
	if env.Files == nil {
		return s.writeAtomic(data, perm)
	}
	path := s.abs
	if s.root != nil {
		path = filepath.Join(s.workspace, s.name)
	}
	if err := env.Files.WriteTextFile(ctx, path, string(data)); err != nil {
		return errs.Wrap(ToolFailed, err, "Tool", string(s.tool), "Problem", err.Error())
	}
	return nil
}

// writeAtomic replaces the file with data through a temp file in the same folder and a rename,
// so a reader never sees half a file and a crash never leaves one.
func (s *site) writeAtomic(data []byte, perm fs.FileMode) (err error) {
	tmp, tmpName, err := createTemp(s.fs, s.name)
	if err != nil {
		return s.fail(err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			s.fs.Remove(tmpName)
			err = s.fail(err)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// The temp file is made 0600; give it the mode the file had (or a new file's default).
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return s.fs.Rename(tmpName, s.name)
}

// createTemp makes a new file beside name, as os.CreateTemp does, but through fsys so that
// inside the workspace it is created below the root too.
func createTemp(fsys fileSystem, name string) (*os.File, string, error) {
	dir, base := filepath.Split(name)
	for range 100 {
		tmpName := filepath.Join(dir, "."+base+".agentdesk-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := fsys.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, tmpName, err
		}
	}
	return nil, "", errors.New("no unused temporary file name beside " + base)
}
