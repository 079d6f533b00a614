// Package netproxy is the network proxy AgentDesk serves to sandboxed commands.
//
// A command's network namespace holds only lo; a bridge inside it forwards 127.0.0.1:PORT to
// the Unix socket this package serves outside, and HTTP_PROXY/HTTPS_PROXY point at that port.
// The proxy speaks what curl, npm, pip and git send to such a proxy: CONNECT (HTTPS and anything
// tunnelled) and plain forward HTTP (GET http://host/path), and SOCKS5 CONNECT with the name
// resolved here (ALL_PROXY=socks5h://), told apart by the connection's first byte.
//
// Each request passes, in this order:
//  1. the mode (Off refuses everything; ReadOnly only GET, HEAD and OPTIONS, and no CONNECT);
//  2. for an IP literal, the address check (no use asking the person about 169.254.169.254);
//  3. the policy (Config.Decide), which may wait for the person; no name is resolved before
//     it is approved, so an unapproved name never leaks out as a DNS query;
//  4. one resolution, and the address check of every answer: loopback, link-local, private,
//     CGNAT, multicast, metadata and this machine's own addresses are refused;
//  5. a connection to exactly the checked addresses, never to the name again, which closes the
//     window a DNS-rebinding answer would use.
//
// A refusal is an HTTP status (403 for a policy, 502 for a failed connection) whose reason
// phrase and one-line body say, in English, what happened and what to do: that line is what a
// command prints and what the model reads. (SOCKS5 has only a reply code; the Log event has the
// reason there.)
package netproxy

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"sync"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
)

// Config is what a proxy allows and whom it tells.
type Config struct {
	// Mode is the call's network mode; an unknown value acts as Off.
	Mode Mode
	// Decide approves a host and port. It may block (the app asking the person) while the
	// connection waits; ctx ends when the proxy closes or, for HTTP, when the command hangs up
	// (a SOCKS5 hang-up is noticed only after the answer). Nil refuses all.
	Decide func(ctx context.Context, host string, port int) Verdict
	// Log, when set, hears of every request once it is settled, before the command hears the
	// answer, from the request's goroutine: it must be safe for concurrent use and not block.
	Log func(Event)
	// Resolver finds addresses; nil means net.DefaultResolver. Its answers are always checked.
	Resolver Resolver
	// Loopback lets tests reach 127.0.0.1 under chosen names; see LoopbackForTests.
	Loopback *Loopback
	// LocalPorts are ports of this machine the person named for a local service, such as a model
	// server an external agent talks to: a request for localhost, 127.0.0.1 or ::1 at one of them
	// is dialled on the loopback address once the policy approves it. Every other loopback,
	// private or own address stays refused.
	LocalPorts []int
}

// Event records one request, for the transcript.
type Event struct {
	Time time.Time
	// Method is "CONNECT" or "SOCKS5" for a tunnel, else the forward request's method.
	Method string
	Host   string
	Port   int
	// Address is the address connected to, when a connection was made (for a forward request,
	// the first checked address: the transport does not say which one answered).
	Address netip.Addr
	Allowed bool
	// Refusal says why, when Allowed is false.
	Refusal *errs.Error
}

// Proxy serves one session's commands on a Unix socket.
type Proxy struct {
	path     string
	mode     Mode
	decide   func(context.Context, string, int) Verdict
	log      func(Event)
	resolver Resolver
	loopback *Loopback
	local    []int
	messages *i18n.Bundle

	listener  *net.UnixListener
	httpConns *connQueue
	server    *http.Server
	transport *http.Transport
	forwarder *httputil.ReverseProxy
	ctx       context.Context // ends at Close: the parent of every request's context
	cancel    context.CancelFunc
	accepted  chan struct{} // closed when the accept loop has ended
	served    chan struct{} // closed when the HTTP server has ended

	mu       sync.Mutex
	closed   bool
	requests sync.WaitGroup        // connections being routed and requests being served
	conns    map[net.Conn]struct{} // connections Close must cut: tunnels, SOCKS, unrouted
}

// Listen serves a proxy on a Unix socket at socketPath. The socket's folder must be private
// (0700, owned by this user), since whoever can connect to the socket uses the session's
// approvals; Listen creates it so when it is missing. A stale socket at socketPath is replaced.
func Listen(socketPath string, cfg Config) (*Proxy, error) {
	messages, err := englishMessages()
	if err != nil {
		return nil, err
	}
	ln, err := listenPrivate(socketPath)
	if err != nil {
		return nil, err
	}
	p := newProxy(socketPath, cfg, messages)
	p.listener, p.httpConns = ln, newConnQueue(ln.Addr())
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.server = &http.Server{
		Handler:           http.HandlerFunc(p.serve),
		ReadHeaderTimeout: handshakeTimeout,
		IdleTimeout:       idleTimeout,
		BaseContext:       func(net.Listener) context.Context { return p.ctx },
		ErrorLog:          discardLog,
	}
	go func() {
		defer close(p.served)
		p.server.Serve(p.httpConns)
	}()
	go p.acceptLoop(ln)
	return p, nil
}

func newProxy(path string, cfg Config, messages *i18n.Bundle) *Proxy {
	p := &Proxy{
		path: path, mode: cfg.Mode.effective(), decide: cfg.Decide, log: cfg.Log, resolver: cfg.Resolver, loopback: cfg.Loopback, local: cfg.LocalPorts,
		messages: messages, accepted: make(chan struct{}), served: make(chan struct{}),
		conns: map[net.Conn]struct{}{},
	}
	if p.resolver == nil {
		p.resolver = net.DefaultResolver
	}
	p.transport, p.forwarder = p.newForwarder()
	return p
}

// Path is the socket's path, for the bridge.
func (p *Proxy) Path() string { return p.path }

// Close stops the proxy: no new connections, waiting decisions are cancelled, and every open
// tunnel and forwarded request is cut. It returns once every goroutine of the proxy has ended.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.cancel()
	err := p.listener.Close()
	<-p.accepted
	p.server.Close()
	<-p.served
	p.requests.Wait()
	p.transport.CloseIdleConnections()
	return err
}

// begin counts a request in, unless the proxy is closing; end counts it out. Counting under the
// same lock that Close takes is what lets Close wait for all of them.
func (p *Proxy) begin() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.requests.Add(1)
	return true
}

func (p *Proxy) end() { p.requests.Done() }

// track registers connections the HTTP server does not own (tunnels, SOCKS5, connections not
// yet routed) so Close can cut them; false means the proxy is closing.
func (p *Proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		delete(p.conns, c)
	}
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	if !p.begin() {
		return
	}
	defer p.end()
	if r.Method == http.MethodConnect {
		p.serveConnect(w, r)
		return
	}
	p.serveForward(w, r)
}

func (p *Proxy) record(method string, t target, addr netip.Addr, refusal *errs.Error) {
	if p.log == nil {
		return
	}
	p.log(Event{Time: time.Now(), Method: method, Host: t.host, Port: t.port, Address: addr,
		Allowed: refusal == nil, Refusal: refusal})
}
