package client

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"
	"mvdan.cc/sh/v3/syntax"

	"agentdesk/backend/errs"
)

// terminalOutputLimit bounds what a terminal keeps when the agent names no limit.
const terminalOutputLimit = 1 << 20

// terminal is one command the agent started with terminal/create: it runs through the turn's
// gate and sandboxed shell, and its output is kept for terminal/output.
type terminal struct {
	cancel context.CancelFunc
	done   chan struct{}
	limit  int

	mu        sync.Mutex
	output    strings.Builder
	truncated bool
	exit      int
	err       error
}

func (t *terminal) write(chunk string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.limit - t.output.Len(); len(chunk) > room {
		chunk, t.truncated = chunk[:max(room, 0)], true
	}
	t.output.WriteString(chunk)
}

// status is the terminal's output so far and, once it ended, how.
func (t *terminal) status() (string, bool, *acp.TerminalExitStatus, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-t.done:
	default:
		return t.output.String(), t.truncated, nil, nil
	}
	st := &acp.TerminalExitStatus{}
	if t.exit >= 0 {
		code := t.exit
		st.ExitCode = &code
	} else {
		signal := "SIGKILL"
		st.Signal = &signal
	}
	return t.output.String(), t.truncated, st, t.err
}

// CreateTerminal starts the command through the turn (external.Handler.RunCommand) and answers
// at once with its id; the gate's question, if any, is part of the command's run, so
// terminal/wait_for_exit waits for the person too.
func (c *conn) CreateTerminal(_ context.Context, req acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	h, err := c.inPrompt(req.SessionId)
	if err != nil {
		return acp.CreateTerminalResponse{}, err
	}
	line, err := commandLine(req, c.workspace)
	if err != nil {
		return acp.CreateTerminalResponse{}, c.refusal(err)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	t := &terminal{cancel: cancel, done: make(chan struct{}), limit: terminalOutputLimit}
	if req.OutputByteLimit != nil && *req.OutputByteLimit > 0 {
		t.limit = *req.OutputByteLimit
	}
	c.mu.Lock()
	c.terminals++
	id := fmt.Sprintf("term-%d", c.terminals)
	if c.running == nil {
		c.running = map[string]*terminal{}
	}
	c.running[id] = t
	c.mu.Unlock()
	go func() {
		defer cancel()
		exit, err := h.RunCommand(ctx, line, t.write)
		t.mu.Lock()
		t.exit, t.err = exit, err
		t.mu.Unlock()
		close(t.done)
	}()
	return acp.CreateTerminalResponse{TerminalId: id}, nil
}

// commandLine is the request as the one shell command line the gate judges: the command alone
// is a shell command (what agents send), arguments are each quoted, and another working folder
// than the workspace is a leading cd. Environment variables are refused: they would change
// what the judged line does without appearing in it.
func commandLine(req acp.CreateTerminalRequest, workspace string) (string, error) {
	if len(req.Env) > 0 {
		return "", errs.New(TerminalRefused, "Reason", "environment variables are not supported; put them in the command")
	}
	parts := []string{req.Command}
	if req.Cwd != nil && *req.Cwd != "" && filepath.Clean(*req.Cwd) != filepath.Clean(workspace) {
		parts = []string{"cd", *req.Cwd, "&&", req.Command}
		if q, err := syntax.Quote(*req.Cwd, syntax.LangBash); err == nil {
			parts[1] = q
		} else {
			return "", errs.New(TerminalRefused, "Reason", "the working folder cannot be quoted for the shell")
		}
	}
	for _, a := range req.Args {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return "", errs.New(TerminalRefused, "Reason", "an argument cannot be quoted for the shell")
		}
		parts = append(parts, q)
	}
	return strings.Join(parts, " "), nil
}

// TerminalRefused is a terminal/create AgentDesk cannot run as asked.
const TerminalRefused errs.Kind = "EXTERNAL_TERMINAL_REFUSED"

func (c *conn) terminal(session acp.SessionId, id string) (*terminal, error) {
	if session != c.sessionID() {
		return nil, acp.NewInvalidParams(map[string]any{"error": "unknown session"})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.running[id]
	if t == nil {
		return nil, acp.NewInvalidParams(map[string]any{"error": "unknown terminal " + id})
	}
	return t, nil
}

func (c *conn) TerminalOutput(_ context.Context, req acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	t, err := c.terminal(req.SessionId, req.TerminalId)
	if err != nil {
		return acp.TerminalOutputResponse{}, err
	}
	out, truncated, st, rerr := t.status()
	if rerr != nil {
		out = strings.TrimSpace(out + "\n" + errs.As(rerr).Error())
	}
	return acp.TerminalOutputResponse{Output: out, Truncated: truncated, ExitStatus: st}, nil
}

// WaitForTerminalExit waits for the command (and the person, where the gate asked); a refusal
// is the agent's error, with the reason.
func (c *conn) WaitForTerminalExit(ctx context.Context, req acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	t, err := c.terminal(req.SessionId, req.TerminalId)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return acp.WaitForTerminalExitResponse{}, ctx.Err()
	}
	_, _, st, rerr := t.status()
	if rerr != nil {
		return acp.WaitForTerminalExitResponse{}, c.refusal(rerr)
	}
	return acp.WaitForTerminalExitResponse{ExitCode: st.ExitCode, Signal: st.Signal}, nil
}

func (c *conn) KillTerminal(_ context.Context, req acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	t, err := c.terminal(req.SessionId, req.TerminalId)
	if err != nil {
		return acp.KillTerminalResponse{}, err
	}
	t.cancel()
	return acp.KillTerminalResponse{}, nil
}

// ReleaseTerminal kills the command if it still runs and forgets it.
func (c *conn) ReleaseTerminal(_ context.Context, req acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	t, err := c.terminal(req.SessionId, req.TerminalId)
	if err != nil {
		return acp.ReleaseTerminalResponse{}, err
	}
	t.cancel()
	c.mu.Lock()
	delete(c.running, req.TerminalId)
	c.mu.Unlock()
	return acp.ReleaseTerminalResponse{}, nil
}
