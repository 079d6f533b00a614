package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"agentdesk/backend/errs"
	"agentdesk/backend/tool"
)

// conn is one live connection to a server, for one workspace.
type conn struct {
	name string
	// session is set once client.Connect returns; ready is closed then (whether or not it
	// succeeded). A server may send notifications before that, during initialize, and their
	// handlers run on the SDK's goroutines: they wait for ready and find the session here.
	session atomic.Pointer[mcp.ClientSession]
	ready   chan struct{}
	proc    *processTransport // nil for HTTP
	done    chan struct{}     // closed when the connection ended
	url     string            // an HTTP server's address, as configured
	watch   statusWatch       // an HTTP server's last error status

	// listMu serializes listings from asking to handing on, so an answer the server gave
	// before it changed a tool never lands after one it gave since (a refresh on its
	// notification and the listing before a call run at once).
	listMu sync.Mutex

	mu      sync.Mutex
	listing []*mcp.Tool
	calls   map[uint64]callHooks
	nextID  atomic.Uint64
	// onList receives every new listing (the host reconciles it with the pins).
	onList func([]*mcp.Tool)
}

// elicitor is what an in-flight call does with a server's elicitation.
type elicitor = tool.Elicitor

// callHooks are where an in-flight call's server requests and notices go.
type callHooks struct {
	elicit   elicitor
	sample   tool.Sampler
	progress func(tool.Progress)
}

// codeDeclined is the JSON-RPC error code MCP gives a sampling request the user rejected.
const codeDeclined = -1

type callKey struct{}

// codeRejectedByTransport is the SDK's code for a message the transport could not carry (the
// connection broke): a crash, not the server's answer.
const codeRejectedByTransport = -32005

// dialSpec is what dial needs.
type dialSpec struct {
	cfg       Config
	workspace string
	dataDir   string
	version   string
	getenv    func(string) string
	logPath   string
	passEnv   []string // the names the shell keeps although they look secret (Settings)
	onList    func([]*mcp.Tool)
}

// dial starts or reaches the server, initializes the session and lists its tools.
func dial(ctx context.Context, s dialSpec) (*conn, error) {
	c := &conn{name: s.cfg.Name, done: make(chan struct{}), ready: make(chan struct{}), calls: map[uint64]callHooks{},
		onList: s.onList, url: s.cfg.URL}
	transport, err := c.transport(s)
	if err != nil {
		return nil, startError(s.cfg.Name, err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agentdesk", Version: s.version}, &mcp.ClientOptions{
		ElicitationHandler:          c.elicit,
		CreateMessageHandler:        c.sample,
		ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { go c.refresh() },
		ProgressNotificationHandler: c.progress,
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
	})
	client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: s.workspace}).String(), Name: "workspace"})
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		close(c.ready)
		c.stopProcess()
		return nil, c.brokenError(err)
	}
	c.session.Store(session)
	close(c.ready)
	go func() {
		_ = session.Wait()
		close(c.done)
	}()
	if err := c.list(ctx); err != nil {
		c.close()
		return nil, c.brokenError(err)
	}
	return c, nil
}

func (c *conn) transport(s dialSpec) (mcp.Transport, error) {
	if s.cfg.Transport == HTTP {
		return httpTransport(s.cfg, s.getenv, &c.watch)
	}
	p, err := newProcess(s.cfg, s.workspace, s.dataDir, s.getenv, s.passEnv, s.logPath)
	if err != nil {
		return nil, err
	}
	c.proc = p
	return p, nil
}

// list reads every page of the server's tools and hands the listing on.
func (c *conn) list(ctx context.Context) error {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	var tools []*mcp.Tool
	for t, err := range c.session.Load().Tools(ctx, nil) {
		if err != nil {
			return err
		}
		tools = append(tools, t)
	}
	c.mu.Lock()
	c.listing = tools
	c.mu.Unlock()
	if c.onList != nil {
		c.onList(tools)
	}
	return nil
}

// refresh lists again after the server said its tools changed. A notice sent before the
// session existed waits for it; one whose connection never came up, or ended, is dropped
// (dial lists the tools itself).
func (c *conn) refresh() {
	select {
	case <-c.ready:
	case <-time.After(dialTimeout):
		return
	}
	if c.session.Load() == nil || !c.alive() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
	defer cancel()
	_ = c.list(ctx)
}

func (c *conn) tools() []*mcp.Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listing
}

func (c *conn) alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// call runs one tool. Elicitations the server sends meanwhile go to hooks.elicit, progress
// notices (the call's id is its progress token) to hooks.progress. Cancelling ctx sends the
// server notifications/cancelled (the SDK does).
func (c *conn) call(ctx context.Context, name string, args json.RawMessage, hooks callHooks) (*mcp.CallToolResult, error) {
	id := c.nextID.Add(1)
	c.mu.Lock()
	c.calls[id] = hooks
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken(int64(id))
	res, err := c.session.Load().CallTool(context.WithValue(ctx, callKey{}, id), params)
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) && rpc.Code != codeRejectedByTransport && c.alive() {
		return nil, errs.Wrap(CallFailed, err, "Server", c.name, "Tool", name, "Problem", rpc.Message)
	}
	return nil, c.crashError(err)
}

// crashError explains a call the connection broke under: the process's exit and the end of its
// standard error where there is a process.
func (c *conn) crashError(err error) error {
	problem := err.Error()
	if c.proc != nil {
		select {
		case <-c.proc.waited:
		case <-time.After(graceful):
		}
		if done, status := c.proc.exited(); done {
			problem = status
		}
	}
	return errs.Wrap(ServerCrashed, err, "Server", c.name, "Problem", problem)
}

// brokenError explains a connection that could not be set up: an HTTP server that did not
// answer or refused, a server that took too long, a process that ended, with its last words.
func (c *conn) brokenError(err error) error {
	if c.proc == nil {
		if e := httpError(c.name, c.url, &c.watch, err); e != nil {
			return e
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(ServerSilent, err, "Server", c.name, "Seconds", int(dialTimeout/time.Second))
	}
	problem := err.Error()
	if c.proc != nil {
		if done, status := c.proc.exited(); done {
			problem = status
		}
	}
	return errs.Wrap(ServerUnavailable, err, "Server", c.name, "Problem", problem)
}

// elicit hands a server's question to the call it belongs to: the one whose request carried it
// (the multi round-trip pattern runs in the call's own context), else the only call in flight.
// With no call, or several to choose between, it is declined: no answer goes to the wrong one.
func (c *conn) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	ask := c.hooksFor(ctx).elicit
	if ask == nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	schema, err := json.Marshal(req.Params.RequestedSchema)
	if err != nil {
		return nil, err
	}
	a, err := ask(ctx, tool.Elicitation{Server: c.name, Message: req.Params.Message, Schema: schema})
	if err != nil {
		return nil, err
	}
	return &mcp.ElicitResult{Action: a.Action, Content: a.Content}, nil
}

// sample puts a server's sampling request to the person through the call it belongs to. With
// no call to hold it (or several to choose between) it is declined: a server samples only
// while one of its tools runs, where the person sees whose request it is.
func (c *conn) sample(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	ask := c.hooksFor(ctx).sample
	if ask == nil {
		return nil, &jsonrpc.Error{Code: codeDeclined, Message: "AgentDesk declined the sampling request: " +
			"a server may use the person's model only while one of its tools runs, with their approval"}
	}
	r := tool.SamplingRequest{Server: c.name, SystemPrompt: req.Params.SystemPrompt, MaxTokens: int(req.Params.MaxTokens)}
	for _, m := range req.Params.Messages {
		r.Messages = append(r.Messages, tool.SamplingMessage{Role: string(m.Role), Text: contentText(m.Content)})
	}
	res, err := ask(ctx, r)
	if err != nil {
		return nil, &jsonrpc.Error{Code: codeDeclined, Message: err.Error()}
	}
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: res.Text}, Model: res.Model, Role: "assistant",
		StopReason: res.StopReason}, nil
}

// hooksFor finds the call a server's request belongs to: the one whose context carried it,
// else the only call in flight; none when there are several to choose between.
func (c *conn) hooksFor(ctx context.Context) callHooks {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := ctx.Value(callKey{}).(uint64); ok {
		return c.calls[id]
	}
	if len(c.calls) == 1 {
		for _, h := range c.calls {
			return h
		}
	}
	return callHooks{}
}

// progress hands a progress notice to the call whose token it names; one naming no call in
// flight (late, or made up) is dropped.
func (c *conn) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	id, ok := progressID(req.Params.ProgressToken)
	if !ok {
		return
	}
	c.mu.Lock()
	report := c.calls[id].progress
	c.mu.Unlock()
	if report != nil {
		report(tool.Progress{Progress: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message})
	}
}

// progressID reads a progress token back as the call id it was sent as (a JSON number, which
// arrives as float64); any other token names no call of ours.
func progressID(token any) (uint64, bool) {
	v, ok := token.(float64)
	if !ok || v < 1 || v != float64(uint64(v)) {
		return 0, false
	}
	return uint64(v), true
}

// close ends the session; a stdio server's process group is stopped with it.
func (c *conn) close() {
	if session := c.session.Load(); session != nil {
		closed := make(chan struct{})
		go func() {
			_ = session.Close()
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(2 * graceful):
		}
	}
	c.stopProcess()
}

// kill ends a stdio server's process group at once, which also ends the session.
func (c *conn) kill() {
	if c.proc != nil && c.proc.cmd.Process != nil {
		c.proc.kill()
	}
}

func (c *conn) stopProcess() {
	if c.proc != nil && c.proc.cmd.Process != nil {
		c.proc.stop()
	}
}
