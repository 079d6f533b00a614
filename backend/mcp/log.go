package mcp

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"agentdesk/backend/errs"
)

// A server's standard error is its own business, not the terminal's or the window's: each
// server writes to a log file of its own in Options.LogDir, which Settings and `mcp log` show.
// Only the end of it is kept in memory, to explain a crash.

const (
	// logLimit is the size at which a server's log is moved aside (one previous file is kept).
	logLimit = 1 << 20
	// LogShown is how much of a log ReadLog returns: its last bytes.
	LogShown = 64 << 10
)

// LogView is the end of a server's log, for Settings and `mcp log`.
type LogView struct {
	Path string `json:"path"`
	Text string `json:"text"`
	// Truncated says Text is only the last LogShown bytes.
	Truncated bool `json:"truncated"`
}

// LogDir is where the servers of the data folder dataDir log; "" (no data folder) keeps none.
func LogDir(dataDir string) string {
	if dataDir == "" {
		return ""
	}
	return filepath.Join(dataDir, "logs")
}

// logPath is where the server named name logs; "" when the host keeps no logs.
func (h *Host) logPath(name string) string {
	if h.opts.LogDir == "" {
		return ""
	}
	return filepath.Join(h.opts.LogDir, "mcp-"+name+".log")
}

// ReadLog returns the end of the log of the server with this id; a server that never wrote
// has an empty one.
func (h *Host) ReadLog(id string) (LogView, error) {
	row, err := h.st.MCPServerByID(id)
	if err != nil {
		return LogView{}, err
	}
	path := h.logPath(row.Name)
	if path == "" {
		return LogView{}, nil
	}
	v := LogView{Path: path}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return v, nil
	}
	if err != nil {
		return v, errs.Wrap(LogUnreadable, err, "Path", path, "Problem", err.Error())
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > LogShown {
		v.Truncated = true
		if _, err := f.Seek(-LogShown, io.SeekEnd); err != nil {
			return v, errs.Wrap(LogUnreadable, err, "Path", path, "Problem", err.Error())
		}
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return v, errs.Wrap(LogUnreadable, err, "Path", path, "Problem", err.Error())
	}
	v.Text = strings.ToValidUTF8(string(b), "\uFFFD")
	return v, nil
}

// openLog opens a server's log for one run, moving a full one aside first, and marks the
// start. A log that cannot be opened is no reason to refuse the server: nil, and it goes
// unlogged.
func openLog(path, started string) io.WriteCloser {
	if path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > logLimit {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil
	}
	fmt.Fprintf(f, "--- %s %s\n", time.Now().Format(time.RFC3339), started)
	return &lineLog{f: f}
}

// lineLog stamps each line with the time it was completed. A pipe hands standard error over in
// chunks that may end mid-line, so an unfinished line waits for its end (or for Close).
type lineLog struct {
	mu      sync.Mutex
	f       *os.File
	partial []byte
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	end := bytes.LastIndexByte(l.partial, '\n')
	if end < 0 {
		return len(p), nil
	}
	err := l.stamp(string(l.partial[:end]))
	l.partial = append(l.partial[:0], l.partial[end+1:]...)
	return len(p), err
}

func (l *lineLog) stamp(lines string) error {
	stamp := time.Now().Format("15:04:05.000 ")
	for _, line := range strings.Split(lines, "\n") {
		if _, err := l.f.WriteString(stamp + line + "\n"); err != nil {
			return err
		}
	}
	return nil
}

func (l *lineLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.partial) > 0 {
		_ = l.stamp(string(l.partial))
	}
	return l.f.Close()
}
