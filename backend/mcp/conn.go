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

	// listMu serializes listings from asking to handing on, so an answer the server gave
	// before it changed a tool never lands after one it gave since (a refresh on its
	// notification and the listing before a call run at once).
	listMu sync.Mutex

	mu      sync.Mutex
	listing []*mcp.Tool
	calls   map[uint64]elicitor
	nextID  atomic.Uint64
	// onList receives every new listing (the host reconciles it with the pins).
	onList func([]*mcp.Tool)
}

// elicitor is what an in-flight call does with a server's elicitation.
type elicitor = tool.Elicitor

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
	log       interface{ Write([]byte) (int, error) }
	onList    func([]*mcp.Tool)
}

// dial starts or reaches the server, initializes the session and lists its tools.
func dial(ctx context.Context, s dialSpec) (*conn, error) {
	c := &conn{name: s.cfg.Name, done: make(chan struct{}), ready: make(chan struct{}), calls: map[uint64]elicitor{},
		onList: s.onList}
	transport, err := c.transport(s)
	if err != nil {
		return nil, startError(s.cfg.Name, err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agentdesk", Version: s.version}, &mcp.ClientOptions{
		ElicitationHandler:     c.elicit,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { go c.refresh() },
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
		return httpTransport(s.cfg, s.getenv)
	}
	p, err := newProcess(s.cfg, s.workspace, s.dataDir, s.getenv, s.log)
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

// call runs one tool. Elicitations the server sends meanwhile go to elicit.
func (c *conn) call(ctx context.Context, name string, args json.RawMessage, elicit elicitor) (*mcp.CallToolResult, error) {
	id := c.nextID.Add(1)
	c.mu.Lock()
	c.calls[id] = elicit
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}()
	res, err := c.session.Load().CallTool(context.WithValue(ctx, callKey{}, id), &mcp.CallToolParams{Name: name, Arguments: args})
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

// brokenError explains a connection that could not be set up.
func (c *conn) brokenError(err error) error {
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
	ask := c.elicitorFor(ctx)
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

func (c *conn) elicitorFor(ctx context.Context) elicitor {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := ctx.Value(callKey{}).(uint64); ok {
		return c.calls[id]
	}
	if len(c.calls) == 1 {
		for _, e := range c.calls {
			return e
		}
	}
	return nil
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
