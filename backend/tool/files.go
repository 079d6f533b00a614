package tool

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// sniffLen is how much of a file is checked for NUL bytes, as git does to call a file binary.
const sniffLen = 8000

// inWorkspace makes a call path absolute the way policy.Resolve does: a relative path is
// appended to the workspace root as given, so "link/.." is resolved by the operating system
// exactly as the gate resolved it, not cleaned lexically first.
func inWorkspace(tool mode.Tool, workspace, p string) (string, error) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	if workspace == "" {
		return "", noWorkspace(tool)
	}
	return workspace + string(filepath.Separator) + p, nil
}

// realTarget is the file a write or edit really changes: policy.Resolve's answer, with every
// symlink followed (dangling ones too), so an atomic rename replaces the target, not the link.
func realTarget(tool mode.Tool, workspace, p string) (string, error) {
	if workspace == "" {
		return "", noWorkspace(tool)
	}
	r, err := policy.Resolve(policy.Workspace{Root: workspace}, policy.Call{Kind: policy.KindWrite, Path: p})
	if err != nil {
		return "", errs.Wrap(ToolFailed, err, "Tool", string(tool), "Problem", err.Error())
	}
	return r.Target.Path, nil
}

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

// openRegular opens path for reading and refuses folders and devices. It checks before opening
// because opening a named pipe blocks until someone writes to it.
func openRegular(tool mode.Tool, shown, path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fileError(tool, shown, err)
	}
	if !info.Mode().IsRegular() {
		return nil, errs.New(NotAFile, "Path", shown)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(tool, shown, err)
	}
	return f, nil
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

// writeAtomic replaces path with data through a temp file in the same folder and a rename, so
// a reader never sees half a file and a crash never leaves one.
func writeAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".agentdesk-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; give it the mode the file had (or a new file's default).
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
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
