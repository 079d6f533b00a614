// Package serve is the browser bridge: the same app API as the desktop bindings, as HTTP
// requests plus a WebSocket of broadcast events, on loopback only, behind a random token and
// an Origin check.
package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
)

// Method is one app action: it takes the JSON request body and returns a JSON-able result.
type Method func(ctx context.Context, body json.RawMessage) (any, error)

// ErrorBody is the wire form of an error: a stable kind plus a localized message.
type ErrorBody struct {
	Kind    string         `json:"kind"`
	Message string         `json:"message"`
	Args    map[string]any `json:"args,omitempty"`
}

// Options configure a Server.
type Options struct {
	Addr      string                                                   // host:port; the host must be loopback
	Methods   map[string]Method                                        // "Struct.Method" -> action
	Assets    fs.FS                                                    // the built frontend (index.html at the root)
	Subscribe func(func([]bus.Event), ...bus.Option) *bus.Subscription // broadcast events, in batches (bus.SubscribeBatch)
	Describe  func(error) ErrorBody                                    // localizes an error
	Token     string                                                   // fixed token for tests; random when empty
	// Faults gives the status of the kinds that are AgentDesk's own failure (5xx) or a conflict
	// with its state (409), from packages serve does not import; any other kind is a refusal.
	Faults map[errs.Kind]int
	// ClientQueue is each WebSocket client's event queue; 0 means 16384.
	ClientQueue int
}

// Server is a running bridge.
type Server struct {
	opts     Options
	token    string
	listener net.Listener
	guard    guard
}

// Listen validates the address, binds it and draws the token.
func Listen(opts Options) (*Server, error) {
	if err := checkLoopback(opts.Addr); err != nil {
		return nil, err
	}
	token := opts.Token
	if token == "" {
		var err error
		if token, err = randomToken(); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidValue, err, "Field", "--addr", "Value", opts.Addr, "Allowed", allowedAddrs)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return &Server{opts: opts, token: token, listener: ln, guard: newGuard(port, token, opts.Describe)}, nil
}

// URL is the address to open, token included, as Jupyter prints it.
func (s *Server) URL() string {
	return "http://" + s.listener.Addr().String() + "/?token=" + s.token
}

// Serve answers requests until ctx ends.
func (s *Server) Serve(ctx context.Context) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	err := srv.Serve(s.listener)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Handler is every route behind the guard.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/{method}", s.handleCall)
	mux.HandleFunc("GET /ws", s.handleEvents)
	mux.Handle("GET /", assetHandler(s.opts.Assets))
	return s.guard.wrap(mux)
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
