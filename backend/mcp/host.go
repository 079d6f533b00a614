package mcp

import (
	"context"
	"errors"
	"os"
	"sort"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// EventChanged is published when a server's state or tools changed (a tool the person has not
// approved appeared, a definition changed, a server started or failed): Settings reloads.
const EventChanged = "mcp.changed"

// ChangedView is the payload of mcp.changed.
type ChangedView struct {
	ServerID string `json:"serverId"`
	Name     string `json:"name"`
}

// Options wire a Host.
type Options struct {
	// DataDir is AgentDesk's data folder, hidden from stdio servers by their sandbox.
	DataDir string
	// Getenv expands ${VAR} in configurations; nil reads the process environment.
	Getenv func(string) string
	// LogDir is the folder of the servers' logs (their standard error), one file per server;
	// "" keeps none.
	LogDir string
	// Publish announces mcp.changed; nil publishes nothing.
	Publish func(name string, data any)
	// Version is AgentDesk's, sent to servers as the client's.
	Version string
}

// Host runs the MCP servers of every session: one connection per server and workspace, started
// at first use, started again at the next call after it crashed, and stopped by Close.
type Host struct {
	st   Store
	opts Options

	mu       sync.Mutex
	slots    map[slotKey]*slot
	sessions map[string][]server // the servers an editor passed over ACP, per session
	closed   bool

	life context.Context // ended by Close
	end  context.CancelFunc
}

type slotKey struct{ server, workspace string }

// slot is one server in one workspace: its connection, and how the last start went.
type slot struct {
	dialing sync.Mutex // held while starting the server, so it starts once however many ask
	mu      sync.Mutex // guards conn and status; never held for long
	conn    *conn
	status  Status
}

// current is the slot's connection, or nil.
func (sl *slot) current() *conn {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.conn
}

// set replaces the connection and status, returning the connection it replaced.
func (sl *slot) set(c *conn, st Status) *conn {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	old := sl.conn
	sl.conn, sl.status = c, st
	return old
}

// take removes the connection if it is still c (any connection when c is nil).
func (sl *slot) take(c *conn) *conn {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	old := sl.conn
	if old == nil || c != nil && old != c {
		return nil
	}
	sl.conn, sl.status = nil, Status{State: "stopped"}
	return old
}

func (sl *slot) state() Status {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.conn != nil && sl.conn.alive() {
		return Status{State: "running"}
	}
	return sl.status
}

// Status is how a server's last start went, for Settings and `mcp list`.
type Status struct {
	State   string `json:"state"` // "stopped", "running" or "failed"
	Problem string `json:"problem,omitempty"`
	// Code and Args are a failure's typed error, so it is shown in words like every other
	// error ("error." + Code, filled with Args); Problem is its detail, as the cause said it.
	Code string         `json:"code,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// server is a server the host may start: one the person configured, or one an editor passed.
type server struct {
	id      string
	cfg     Config
	enabled bool
	pins    pinBook
}

// NewHost returns a host over st; nothing starts until a server is used.
func NewHost(st Store, opts Options) *Host {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Publish == nil {
		opts.Publish = func(string, any) {}
	}
	h := &Host{st: st, opts: opts, slots: map[slotKey]*slot{}, sessions: map[string][]server{}}
	h.life, h.end = context.WithCancel(context.Background())
	return h
}

// Close stops every server (each stdio server's whole process group): a start under way is
// abandoned, then each connection ends gracefully. Past ctx's deadline the servers still
// running are killed outright, and Close reports the deadline.
func (h *Host) Close(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	slots := h.slots
	h.slots = map[slotKey]*slot{}
	h.mu.Unlock()
	h.end()
	var (
		mu      sync.Mutex
		closing []*conn
		wg      sync.WaitGroup
	)
	for _, s := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.dialing.Lock() // the abandoned start returns first
			defer s.dialing.Unlock()
			if c := s.take(nil); c != nil {
				mu.Lock()
				closing = append(closing, c)
				mu.Unlock()
				c.close()
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	mu.Lock()
	for _, c := range closing {
		c.kill()
	}
	mu.Unlock()
	<-done
	return errors.Join(ErrKilled, ctx.Err())
}

// ErrKilled is Close's answer when servers were still stopping at its deadline: they were
// killed (their whole process groups) rather than left behind.
var ErrKilled = errors.New("mcp: servers still stopping at the close deadline were killed")

// bound is ctx, also ended by Close: a server being started when AgentDesk stops is abandoned.
func (h *Host) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(h.life, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// inScope lists the enabled servers a session in workspace may use: the global ones, those of
// the workspace (which replace a global one of the same name), and those its editor passed.
func (h *Host) inScope(sessionID, workspace string) ([]server, error) {
	rows, err := h.st.MCPServers()
	if err != nil {
		return nil, err
	}
	byName := map[string]server{}
	for _, r := range rows {
		if !r.Enabled || r.Workspace != "" && r.Workspace != workspace {
			continue
		}
		if _, taken := byName[r.Name]; taken && r.Workspace == "" {
			continue
		}
		byName[r.Name] = h.stored(r)
	}
	h.mu.Lock()
	for _, s := range h.sessions[sessionID] {
		byName[s.cfg.Name] = s
	}
	h.mu.Unlock()
	out := make([]server, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cfg.Name < out[j].cfg.Name })
	return out, nil
}

func (h *Host) stored(r store.MCPServer) server {
	return server{id: r.ID, cfg: configOf(r), enabled: r.Enabled, pins: storedPins{st: h.st, id: r.ID}}
}

// workspaceOf is where a server runs: its own workspace when it has one.
func workspaceOf(s server, workspace string) string {
	if s.cfg.Workspace != "" {
		return s.cfg.Workspace
	}
	return workspace
}

// connect returns the server's live connection in workspace, starting it when there is none or
// the last one ended (a crash): this is the restart at the next call.
func (h *Host) connect(ctx context.Context, s server, workspace string) (*conn, error) {
	sl, err := h.slot(slotKey{s.id, workspace})
	if err != nil {
		return nil, err
	}
	sl.dialing.Lock()
	defer sl.dialing.Unlock()
	if c := sl.current(); c != nil && c.alive() {
		return c, nil
	}
	if old := sl.take(nil); old != nil {
		go old.close()
	}
	ctx, cancel := h.bound(ctx)
	defer cancel()
	spec := h.spec(s.cfg, workspace)
	spec.onList = func(tools []*mcp.Tool) { h.reconcile(s, tools) }
	c, err := dial(ctx, spec)
	if err != nil {
		e := errs.As(err)
		sl.set(nil, Status{State: "failed", Problem: problemOf(err), Code: string(e.Kind), Args: e.Args})
		h.opts.Publish(EventChanged, ChangedView{ServerID: s.id, Name: s.cfg.Name})
		return nil, err
	}
	sl.set(c, Status{State: "running"})
	return c, nil
}

// spec is how to dial the server cfg configures in workspace. Its environment keeps what the
// shell's does: a setting that cannot be read keeps nothing more.
func (h *Host) spec(cfg Config, workspace string) dialSpec {
	pass, _ := h.st.ShellPassEnv()
	return dialSpec{cfg: cfg, workspace: workspace, dataDir: h.opts.DataDir, version: h.opts.Version,
		getenv: h.opts.Getenv, logPath: h.logPath(cfg.Name), passEnv: pass}
}

func (h *Host) slot(k slotKey) (*slot, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errs.New(ServerUnavailable, "Server", k.server, "Problem", "AgentDesk is shutting down")
	}
	sl, ok := h.slots[k]
	if !ok {
		sl = &slot{status: Status{State: "stopped"}}
		h.slots[k] = sl
	}
	return sl, nil
}

// forget drops a server's connections (it was removed or switched off), stopping them.
func (h *Host) forget(id string) {
	h.mu.Lock()
	var gone []*slot
	for k, sl := range h.slots {
		if k.server == id {
			gone = append(gone, sl)
			delete(h.slots, k)
		}
	}
	h.mu.Unlock()
	for _, sl := range gone {
		sl.dialing.Lock()
		if c := sl.take(nil); c != nil {
			c.close()
		}
		sl.dialing.Unlock()
	}
}

// status is the state of a server's connections: running if one runs, else the last failure.
func (h *Host) status(id string) Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := Status{State: "stopped"}
	for k, sl := range h.slots {
		if k.server != id {
			continue
		}
		switch st := sl.state(); st.State {
		case "running":
			return st
		case "failed":
			out = st
		}
	}
	return out
}

func problemOf(err error) string {
	e := errs.As(err)
	if p, ok := e.Args["Problem"].(string); ok {
		return p
	}
	return err.Error()
}

// reconcile records a server's new listing beside the pins and announces a tool that needs the
// person: one never approved, or one whose definition changed.
func (h *Host) reconcile(s server, tools []*mcp.Tool) {
	defs := map[string]string{}
	for _, t := range tools {
		if d, err := defOf(t); err == nil {
			defs[t.Name] = d.canonical()
		}
	}
	rows, err := s.pins.see(defs)
	if err != nil {
		return
	}
	for _, r := range rows {
		if def, listed := defs[r.Name]; listed && r.Pinned != def {
			h.opts.Publish(EventChanged, ChangedView{ServerID: s.id, Name: s.cfg.Name})
			return
		}
	}
}

// pinBook is where a server's approvals live.
type pinBook interface {
	see(defs map[string]string) ([]store.MCPTool, error)
	rows() ([]store.MCPTool, error)
	// approve pins def, the listed definition the person reviewed, for the tool name.
	approve(name, def string) error
}

type storedPins struct {
	st Store
	id string
}

func (p storedPins) see(defs map[string]string) ([]store.MCPTool, error) {
	return p.st.SeeMCPTools(p.id, defs)
}
func (p storedPins) rows() ([]store.MCPTool, error) { return p.st.MCPTools(p.id) }
func (p storedPins) approve(name, def string) error {
	return p.st.ApproveMCPTool(p.id, name, def)
}
