package tool

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"
)

// CommandResult is how a command AgentDesk ran itself ended: its exit code (-1 when a signal or
// a failure left it none), the last bytes of its output, and how long it ran.
type CommandResult struct {
	ExitCode  int
	Output    string
	Duration  time.Duration
	TimedOut  bool
	Cancelled bool
}

// RunCommand runs command line with the shell in dir, confined exactly as the bash tool
// confines the agent's commands under opts, for at most timeout or until ctx ends, and keeps
// the last tail bytes of its output. It is for commands the person chose to run (a worktree's
// set-up), so nothing here asks: opts must already say what the command may reach.
func RunCommand(ctx context.Context, dir, command string, opts ShellOptions, timeout time.Duration, tail int) (CommandResult, error) {
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := &tailWriter{keep: tail}
	start := time.Now()
	waitErr, killed, err := runShell(runCtx, dir, command, opts, out)
	if err != nil {
		return CommandResult{}, err
	}
	res := CommandResult{ExitCode: exitCode(waitErr), Output: out.String(), Duration: time.Since(start)}
	if killed {
		res.ExitCode, res.Cancelled, res.TimedOut = -1, ctx.Err() != nil, ctx.Err() == nil
	}
	return res, nil
}

func exitCode(waitErr error) int {
	var exit *exec.ExitError
	switch {
	case waitErr == nil:
		return 0
	case errors.As(waitErr, &exit):
		return exit.ExitCode() // -1 for a signal
	}
	return -1
}

// tailWriter keeps the last keep bytes written to it.
type tailWriter struct {
	buf  []byte
	keep int
	cut  bool
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	// Shift only when twice the bound is held: amortized linear in the output.
	if len(w.buf) > 2*w.keep {
		w.buf, w.cut = append(w.buf[:0], w.buf[len(w.buf)-w.keep:]...), true
	}
	return len(p), nil
}

// String is the tail, starting at a whole line (or a whole rune) where it was cut.
func (w *tailWriter) String() string {
	b := w.buf
	if len(b) > w.keep {
		b, w.cut = b[len(b)-w.keep:], true
	}
	if !w.cut {
		return string(b)
	}
	s := string(b)
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}
