package mcp

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"syscall"
	"time"

	"agentdesk/backend/errs"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is the Streamable HTTP transport to cfg.URL, sending the configured headers
// (with ${VAR} expanded from the environment, so a token stays out of the database). The
// status of the last answer that was an error is kept in watch, to say in words why a server
// refused.
func httpTransport(cfg Config, getenv func(string) string, watch *statusWatch) (mcp.Transport, error) {
	endpoint, err := expandVars(cfg.URL, getenv)
	if err != nil {
		return nil, err
	}
	headers := http.Header{}
	for _, k := range sortedKeys(cfg.Headers) {
		v, err := expandVars(cfg.Headers[k], getenv)
		if err != nil {
			return nil, err
		}
		headers.Set(k, v)
	}
	client := &http.Client{Transport: withHeaders{headers: headers, watch: watch, next: http.DefaultTransport}}
	// One retry of the event stream, not five with back-off: a server that went away should
	// fail the call at once and be dialed afresh at the next one.
	return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client, MaxRetries: 1}, nil
}

// withHeaders adds fixed headers to every request and notes error statuses.
type withHeaders struct {
	headers http.Header
	watch   *statusWatch
	next    http.RoundTripper
}

func (w withHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(w.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range w.headers {
			r.Header[k] = v
		}
	}
	resp, err := w.next.RoundTrip(r)
	if err == nil && resp.StatusCode >= 400 {
		w.watch.status.Store(int32(resp.StatusCode))
	}
	return resp, err
}

// statusWatch holds the last error status an HTTP server answered with (0: none).
type statusWatch struct{ status atomic.Int32 }

// httpError says in words why an HTTP server could not be used: nothing answered at its
// address, it answered with an error status, or neither (nil: the caller keeps its own).
func httpError(name, endpoint string, watch *statusWatch, err error) error {
	if code := int(watch.status.Load()); code != 0 {
		status := fmt.Sprintf("%d %s", code, http.StatusText(code))
		kind := ServerRefused
		if code == http.StatusUnauthorized || code == http.StatusForbidden {
			kind = ServerUnauthorized
		}
		return errs.Wrap(kind, err, "Server", name, "URL", endpoint, "Status", status)
	}
	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &opErr) || errors.As(err, &dnsErr) || errors.Is(err, syscall.ECONNREFUSED) {
		return errs.Wrap(ServerUnreachable, err, "Server", name, "URL", endpoint)
	}
	return nil
}

// dialTimeout bounds starting or reaching a server, so a broken one cannot hold a turn.
const dialTimeout = 20 * time.Second
