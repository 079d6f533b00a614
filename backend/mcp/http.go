package mcp

import (
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is the Streamable HTTP transport to cfg.URL, sending the configured headers
// (with ${VAR} expanded from the environment, so a token stays out of the database).
func httpTransport(cfg Config, getenv func(string) string) (mcp.Transport, error) {
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
	client := &http.Client{Transport: withHeaders{headers: headers, next: http.DefaultTransport}}
	// One retry of the event stream, not five with back-off: a server that went away should
	// fail the call at once and be dialed afresh at the next one.
	return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client, MaxRetries: 1}, nil
}

// withHeaders adds fixed headers to every request.
type withHeaders struct {
	headers http.Header
	next    http.RoundTripper
}

func (w withHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(w.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range w.headers {
			r.Header[k] = v
		}
	}
	return w.next.RoundTrip(r)
}

// dialTimeout bounds starting or reaching a server, so a broken one cannot hold a turn.
const dialTimeout = 20 * time.Second
