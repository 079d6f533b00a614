package netproxy

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"strconv"
	"time"

	"agentdesk/backend/errs"
)

// pinnedKey carries a forward request's method, target and checked addresses from the handler
// to the dial and to the forwarder's hooks, which log the outcome before the command sees it.
type pinnedKey struct{}

// serveForward passes on a plain HTTP request in absolute form (GET http://host/path).
func (p *Proxy) serveForward(w http.ResponseWriter, r *http.Request) {
	t, perr := forwardTarget(r)
	if perr != nil {
		p.refuseAndRecord(w, r.Method, t, perr)
		return
	}
	upgrade := r.Header.Get("Upgrade") != ""
	addrs, refusal := p.admit(r.Context(), request{method: r.Method, target: t, upgrade: upgrade})
	if refusal != nil {
		p.refuseAndRecord(w, r.Method, t, refusal)
		return
	}
	ctx := context.WithValue(r.Context(), pinnedKey{}, pinned{r.Method, t, addrs})
	p.forwarder.ServeHTTP(w, r.WithContext(ctx))
}

// forwardTarget reads an absolute-form request's target; any other form is not for a proxy.
func forwardTarget(r *http.Request) (target, *errs.Error) {
	if r.URL.Host == "" || !r.URL.IsAbs() {
		return target{}, errs.New(BadRequest, "Problem", "a proxy request names its full URL (http://host/path), or uses CONNECT")
	}
	if r.URL.Scheme != "http" {
		return target{}, errs.New(BadRequest, "Problem", "only http:// URLs are forwarded; https:// goes through CONNECT")
	}
	port := r.URL.Port()
	if port == "" {
		port = "80"
	}
	return parseTarget(net.JoinHostPort(r.URL.Hostname(), port), 0)
}

// pinned is a forward request's target and its checked addresses: the only addresses the dial
// may use.
type pinned struct {
	method string
	target target
	addrs  []netip.Addr
}

// newForwarder builds the transport and reverse proxy for forward requests. The transport
// never consults the environment's proxy variables and dials only pinned addresses.
func (p *Proxy) newForwarder() (*http.Transport, *httputil.ReverseProxy) {
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialPinned,
		ForceAttemptHTTP2:     false,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 5 * time.Minute,
	}
	forwarder := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			// The URL is already absolute; the command's Proxy-* headers are for us alone.
			pr.Out.Header.Del("Proxy-Authorization")
			pr.Out.Header.Del("Proxy-Connection")
		},
		Transport:     transport,
		ErrorLog:      discardLog,
		FlushInterval: -1, // stream as it comes: npm and pip show progress
		ModifyResponse: func(resp *http.Response) error {
			if pin, ok := resp.Request.Context().Value(pinnedKey{}).(pinned); ok {
				p.record(pin.method, pin.target, pin.addrs[0].Unmap(), nil)
			}
			return nil
		},
		ErrorHandler: p.forwardFailed,
	}
	return transport, forwarder
}

func (p *Proxy) forwardFailed(w http.ResponseWriter, r *http.Request, err error) {
	refusal := errs.As(err)
	if refusal.Kind == errs.Internal {
		refusal = errs.Wrap(DialFailed, err, "Host", r.URL.Hostname(), "Problem", problem(err))
	}
	if pin, ok := r.Context().Value(pinnedKey{}).(pinned); ok {
		p.record(pin.method, pin.target, netip.Addr{}, refusal)
	}
	p.refuse(w, refusal)
}

// dialPinned connects a forward request to its checked addresses. A dial without them (which
// would be a bug) is refused rather than resolved again.
func dialPinned(ctx context.Context, _, addr string) (net.Conn, error) {
	pin, ok := ctx.Value(pinnedKey{}).(pinned)
	if !ok || net.JoinHostPort(pin.target.host, strconv.Itoa(pin.target.port)) != normalHostPort(addr) {
		return nil, errs.New(DialFailed, "Host", addr, "Problem", "no checked address")
	}
	conn, err := dialChecked(ctx, pin.target, pin.addrs)
	if err != nil {
		return nil, err
	}
	return conn, nil
}

// normalHostPort spells a transport's "host:port" the way targets are spelled.
func normalHostPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return net.JoinHostPort(NormalHost(host), port)
}
