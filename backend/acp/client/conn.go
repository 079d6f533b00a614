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

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/proc"
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

	workspace string
	confine   string // the terms the process runs under (confineKey)
	cleanup   func() // removes what the confinement made for the process, once it exited

	mu        sync.Mutex
	handler   external.Handler
	running   map[string]*terminal // the agent's terminals (terminal.go)
	terminals int                  // terminals created, for their ids
	modes     agentModes
	loaded    bool   // the agent loaded its earlier session
	recap     bool   // the next prompt starts with the conversation so far (a fresh agent session)
	nonsense  string // the first line of output that was not JSON
	waitErr   error
}

// start runs the command in the workspace, initializes ACP and opens the session.
func start(ctx context.Context, s external.Session, logw io.Writer) (*conn, error) {
	command := s.Command
	args, err := shell.Fields(command, func(string) string { return "" })
	if err != nil || len(args) == 0 {
		return nil, errs.New(external.AgentFailed, "Agent", command, "Detail", "cannot parse the command line")
	}
	c := &conn{command: command, stderr: &tail{w: logw}, exited: make(chan struct{}), workspace: s.Workspace,
		confine: confineKey(s.Confine)}
	// Its own process group under the helper, confined where the session says: stopping the
	// agent, or AgentDesk dying, takes everything the agent started with it.
	c.cmd, c.cleanup, err = agentCommand(s, args, logw)
	if err != nil {
		return nil, c.startErr(err)
	}
	proc.Own(c.cmd, true)
	c.cmd.Dir = s.Workspace
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
		c.cleanup()
		return nil, c.startErr(err)
	}
	w.Close()
	go func() {
		err := c.cmd.Wait()
		c.cleanup()
		c.mu.Lock()
		c.waitErr = err
		c.mu.Unlock()
		close(c.exited)
	}()
	c.ctx, c.cancel = context.WithCancel(context.Background())
	// The agent's output flows only once the logger is set: the connection's goroutines read it.
	agentOut, flow := c.guard(out)
	c.conn = acp.NewClientSideConnection(c, stdin, agentOut)
	// Warnings and errors only: "connection closed" after every run is not news.
	c.conn.SetLogger(slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn})))
	flow()
	go func() {
		<-c.conn.Done()
		c.cancel()
	}()
	if err := c.open(ctx, s); err != nil {
		out := c.failure(err)
		c.stop()
		return nil, out
	}
	return c, nil
}

func (c *conn) startErr(err error) error {
	return errs.Wrap(external.AgentFailed, err, "Agent", c.command, "Detail", err.Error())
}

// DefaultStartTimeout applies when the caller names no start-up limit.
const DefaultStartTimeout = 120 * time.Second

// open runs initialize, then session/load of the agent's earlier session where it has one and
// can load it, else session/new — all within the start-up limit, which a slow agent that
// misses it is told in the error.
func (c *conn) open(ctx context.Context, s external.Session) error {
	limit := s.StartTimeout
	if limit <= 0 {
		limit = DefaultStartTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	err := c.handshake(ctx, s)
	if err != nil && ctx.Err() == context.DeadlineExceeded && c.alive() {
		return errs.New(ExternalAgentStartTimeout, "Agent", c.command, "Limit", limit.String())
	}
	return err
}

func (c *conn) handshake(ctx context.Context, s external.Session) error {
	ir, err := c.conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{Fs: acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: true},
		ClientInfo: &acp.Implementation{Name: "agentdesk", Version: "1"}})
	if err != nil {
		return err
	}
	if ir.ProtocolVersion != acp.ProtocolVersionNumber {
		return errs.New(external.AgentProtocol, "Agent", c.command,
			"Detail", fmt.Sprintf("protocol version %d, want %d", ir.ProtocolVersion, acp.ProtocolVersionNumber))
	}
	if s.AgentSession != "" && ir.AgentCapabilities.LoadSession {
		if loaded, err := c.load(ctx, s); loaded || err != nil {
			return err
		}
	}
	ns, err := c.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: s.Workspace, McpServers: []acp.McpServer{}})
	if err != nil {
		return err
	}
	if ns.SessionId == "" {
		return errs.New(external.AgentProtocol, "Agent", c.command, "Detail", "session/new returned no sessionId")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session, c.modes, c.recap = ns.SessionId, modesOf(ns.Modes, ns.ConfigOptions), true
	return nil
}

// load asks the agent to load its earlier session. A refusal is not an error: the caller
// starts a new session and the first prompt recaps the conversation. The history the agent
// replays meanwhile is not recorded again (no prompt is running, so no handler listens).
func (c *conn) load(ctx context.Context, s external.Session) (bool, error) {
	c.mu.Lock()
	c.session = acp.SessionId(s.AgentSession)
	c.mu.Unlock()
	lr, err := c.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: acp.SessionId(s.AgentSession), Cwd: s.Workspace,
		McpServers: []acp.McpServer{}})
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.session = ""
		if ctx.Err() != nil || !c.alive() {
			return false, err
		}
		fmt.Fprintf(c.stderr.w, "agentdesk: %s could not load session %s (%v); starting a new one\n", c.command, s.AgentSession, err)
		return false, nil
	}
	c.modes, c.loaded = modesOf(lr.Modes, lr.ConfigOptions), true
	return true, nil
}

// info is what the running agent offers.
func (c *conn) info() external.Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	modes := make([]external.AgentMode, 0, len(c.modes.values))
	for _, v := range c.modes.values {
		modes = append(modes, external.AgentMode{ID: v.id, Name: v.name})
	}
	plan := c.modes.plan()
	return external.Info{AgentSession: string(c.session), Loaded: c.loaded, PlanMode: plan != "", Modes: modes, PlanModeID: plan}
}

// promptBlocks is the prompt as sent: what AgentDesk has to tell the agent first (the
// conversation so far for a fresh agent session, the reasons of calls declined since its last
// prompt), then the person's text.
func (c *conn) promptBlocks(pr external.Prompt) []acp.ContentBlock {
	c.mu.Lock()
	recap, notes := c.recap, pr.Notes
	c.recap = false
	c.mu.Unlock()
	var blocks []acp.ContentBlock
	if recap && pr.Recap != nil {
		if text := pr.Recap(); text != "" {
			blocks = append(blocks, acp.TextBlock(text))
		}
	}
	if len(notes) > 0 {
		blocks = append(blocks, acp.TextBlock(strings.Join(notes, "\n")))
	}
	return append(blocks, acp.TextBlock(pr.Text))
}

func (c *conn) sessionID() acp.SessionId {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// guard passes the agent's output on line by line and stops at the first line that is not
// JSON: an agent speaking nonsense is stopped, and the turn says why.
func (c *conn) guard(out io.ReadCloser) (io.Reader, func()) {
	pr, pw := io.Pipe()
	return pr, func() { go c.pass(out, pw) }
}

func (c *conn) pass(out io.ReadCloser, pw *io.PipeWriter) {
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

// kill ends the agent's whole process group.
func (c *conn) kill() { proc.Kill(c.cmd) }

// stop ends the agent: the process is killed and its connection shut, and stop waits (a
// little) for the connection's goroutines, so nothing of the agent outlives its pool.
func (c *conn) stop() {
	c.kill()
	if c.cancel != nil {
		c.cancel()
	}
	if c.conn != nil {
		select {
		case <-c.conn.Done():
		case <-time.After(2 * time.Second):
		}
	}
}

// failure turns a failed exchange into a clear error: nonsense on the wire, the agent's exit
// with the end of its stderr, or the agent's own error message.
func (c *conn) failure(err error) error {
	var e *errs.Error
	if errors.As(err, &e) { // already classified: a protocol error, a start-up timeout, …
		return err
	}
	c.mu.Lock()
	nonsense := c.nonsense
	c.mu.Unlock()
	if nonsense != "" {
		return errs.New(external.AgentProtocol, "Agent", c.command, "Detail", nonsense)
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
		return errs.New(external.AgentFailed, "Agent", c.command, "Detail", detail)
	}
	var re *acp.RequestError
	if errors.As(err, &re) {
		return errs.New(external.AgentFailed, "Agent", c.command, "Detail", requestDetail(re))
	}
	return errs.Wrap(external.AgentFailed, err, "Agent", c.command, "Detail", err.Error())
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
	return "", errs.New(external.AgentProtocol, "Agent", c.command, "Detail", "stopReason "+clip(string(resp.StopReason), 80))
}

func (c *conn) setHandler(h external.Handler) {
	c.mu.Lock()
	c.handler = h
	c.mu.Unlock()
}

func (c *conn) current() external.Handler {
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
