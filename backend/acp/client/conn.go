package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"mvdan.cc/sh/v3/shell"

	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
)

// conn is one running agent process and its ACP session.
type conn struct {
	command string
	cmd     *exec.Cmd
	conn    *acp.ClientSideConnection
	ctx     context.Context // ends when the agent's output ends
	cancel  context.CancelFunc
	session acp.SessionId
	stderr  *tail
	exited  chan struct{}

	mu       sync.Mutex
	handler  agent.ExternalHandler
	modes    *acp.SessionModeState
	nonsense string // the first line of output that was not JSON
	waitErr  error
}

// start runs the command in the workspace, initializes ACP and opens a session.
func start(ctx context.Context, command, workspace string, logw io.Writer) (*conn, error) {
	args, err := shell.Fields(command, func(string) string { return "" })
	if err != nil || len(args) == 0 {
		return nil, errs.New(agent.ExternalAgentFailed, "Agent", command, "Detail", "cannot parse the command line")
	}
	c := &conn{command: command, stderr: &tail{w: logw}, exited: make(chan struct{})}
	c.cmd = exec.Command(args[0], args[1:]...)
	c.cmd.Dir = workspace
	c.cmd.Stderr = c.stderr
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, c.startErr(err)
	}
	// An os.Pipe rather than StdoutPipe: what the agent wrote before it died is still read.
	out, w, err := os.Pipe()
	if err != nil {
		return nil, c.startErr(err)
	}
	c.cmd.Stdout = w
	if err := c.cmd.Start(); err != nil {
		out.Close()
		w.Close()
		return nil, c.startErr(err)
	}
	w.Close()
	go func() {
		err := c.cmd.Wait()
		c.mu.Lock()
		c.waitErr = err
		c.mu.Unlock()
		close(c.exited)
	}()
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.conn = acp.NewClientSideConnection(c, stdin, c.guard(out))
	c.conn.SetLogger(slog.New(slog.NewTextHandler(logw, nil)))
	go func() {
		<-c.conn.Done()
		c.cancel()
	}()
	if err := c.open(ctx, workspace); err != nil {
		out := c.failure(err)
		c.stop()
		return nil, out
	}
	return c, nil
}

func (c *conn) startErr(err error) error {
	return errs.Wrap(agent.ExternalAgentFailed, err, "Agent", c.command, "Detail", err.Error())
}

// open runs initialize and session/new within StartTimeout.
func (c *conn) open(ctx context.Context, workspace string) error {
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	ir, err := c.conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo: &acp.Implementation{Name: "agentdesk", Version: "1"}})
	if err != nil {
		return err
	}
	if ir.ProtocolVersion != acp.ProtocolVersionNumber {
		return errs.New(agent.ExternalAgentProtocol, "Agent", c.command,
			"Detail", fmt.Sprintf("protocol version %d, want %d", ir.ProtocolVersion, acp.ProtocolVersionNumber))
	}
	ns, err := c.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: workspace, McpServers: []acp.McpServer{}})
	if err != nil {
		return err
	}
	if ns.SessionId == "" {
		return errs.New(agent.ExternalAgentProtocol, "Agent", c.command, "Detail", "session/new returned no sessionId")
	}
	c.session = ns.SessionId
	c.modes = ns.Modes
	return nil
}

// guard passes the agent's output on line by line and stops at the first line that is not
// JSON: an agent speaking nonsense is stopped, and the turn says why.
func (c *conn) guard(out io.ReadCloser) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		defer out.Close()
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 64*1024), 10*1024*1024)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			if !json.Valid(line) {
				c.mu.Lock()
				c.nonsense = clip(string(line), 200)
				c.mu.Unlock()
				c.kill()
				pw.CloseWithError(io.ErrUnexpectedEOF)
				return
			}
			if _, err := pw.Write(append(line, '\n')); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err())
	}()
	return pr
}

func (c *conn) alive() bool {
	select {
	case <-c.conn.Done():
		return false
	case <-c.ctx.Done():
		return false
	case <-c.exited:
		return false
	default:
		return true
	}
}

func (c *conn) kill() {
	if c.cmd.Process != nil {
		c.cmd.Process.Kill()
	}
}

// stop ends the agent: its input is closed and the process killed.
func (c *conn) stop() {
	c.kill()
	if c.cancel != nil {
		c.cancel()
	}
}

// failure turns a failed exchange into a clear error: nonsense on the wire, the agent's exit
// with the end of its stderr, or the agent's own error message.
func (c *conn) failure(err error) error {
	var e *errs.Error
	if errors.As(err, &e) && (e.Kind == agent.ExternalAgentProtocol || e.Kind == agent.ExternalAgentFailed) {
		return err
	}
	c.mu.Lock()
	nonsense := c.nonsense
	c.mu.Unlock()
	if nonsense != "" {
		return errs.New(agent.ExternalAgentProtocol, "Agent", c.command, "Detail", nonsense)
	}
	if !c.alive() {
		select { // the process is on its way out: give its status a moment to arrive
		case <-c.exited:
		case <-time.After(2 * time.Second):
		}
		c.mu.Lock()
		detail := "exited"
		if c.waitErr != nil {
			detail = c.waitErr.Error()
		}
		c.mu.Unlock()
		if t := c.stderr.String(); t != "" {
			detail += ": " + t
		}
		return errs.New(agent.ExternalAgentFailed, "Agent", c.command, "Detail", detail)
	}
	var re *acp.RequestError
	if errors.As(err, &re) {
		return errs.New(agent.ExternalAgentFailed, "Agent", c.command, "Detail", requestDetail(re))
	}
	return errs.Wrap(agent.ExternalAgentFailed, err, "Agent", c.command, "Detail", err.Error())
}

func requestDetail(re *acp.RequestError) string {
	if m, ok := re.Data.(map[string]any); ok {
		for _, k := range []string{"message", "error", "details"} {
			if s, ok := m[k].(string); ok && s != "" {
				return re.Message + ": " + s
			}
		}
	}
	return re.Message
}

// stopReason checks the agent's answer to a prompt.
func (c *conn) stopReason(resp acp.PromptResponse) (string, error) {
	switch resp.StopReason {
	case acp.StopReasonEndTurn, acp.StopReasonMaxTokens, acp.StopReasonMaxTurnRequests, acp.StopReasonRefusal, acp.StopReasonCancelled:
		return string(resp.StopReason), nil
	}
	return "", errs.New(agent.ExternalAgentProtocol, "Agent", c.command, "Detail", "stopReason "+clip(string(resp.StopReason), 80))
}

// applyMode switches the agent to our mode where it has a mode of the same id.
func (c *conn) applyMode(ctx context.Context, id string) error {
	c.mu.Lock()
	modes := c.modes
	c.mu.Unlock()
	if modes == nil || modes.CurrentModeId == acp.SessionModeId(id) {
		return nil
	}
	for _, m := range modes.AvailableModes {
		if string(m.Id) != id {
			continue
		}
		if _, err := c.conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: c.session, ModeId: m.Id}); err != nil {
			return err
		}
		c.setMode(m.Id)
		return nil
	}
	return nil
}

func (c *conn) setMode(id acp.SessionModeId) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.modes != nil {
		c.modes.CurrentModeId = id
	}
}

func (c *conn) setHandler(h agent.ExternalHandler) {
	c.mu.Lock()
	c.handler = h
	c.mu.Unlock()
}

func (c *conn) current() agent.ExternalHandler {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.handler
}

// tail keeps the end of the agent's stderr for error messages and copies it to the log.
type tail struct {
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

const tailSize = 1024

func (t *tail) Write(p []byte) (int, error) {
	t.w.Write(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
