package netproxy_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/netproxy/netproxytest"
)

// shortDir is a temporary folder with a path short enough for a Unix socket (108 bytes), which
// t.TempDir's, named after long test names, may not be.
func shortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "np")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func start(t testing.TB, cfg netproxy.Config) *netproxy.Proxy {
	t.Helper()
	p, err := netproxy.Listen(filepath.Join(shortDir(t), "proxy", "s"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// allow is a policy approving exactly patterns.
func allow(t testing.TB, patterns ...string) func(context.Context, string, int) netproxy.Verdict {
	t.Helper()
	a, err := netproxytest.NewAllowlist(patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return a.Decide
}

// events collects what the proxy logs.
type events struct {
	mu   sync.Mutex
	list []netproxy.Event
}

func (e *events) log(ev netproxy.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, ev)
}

func (e *events) all() []netproxy.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]netproxy.Event(nil), e.list...)
}

// resolver is a hand-written DNS: names to fixed answers; it counts the names it was asked.
type resolver struct {
	mu      sync.Mutex
	answers map[string][]netip.Addr
	asked   []string
}

func resolveTo(answers map[string]string) *resolver {
	r := &resolver{answers: map[string][]netip.Addr{}}
	for name, list := range answers {
		for _, a := range strings.Split(list, ",") {
			r.answers[name] = append(r.answers[name], netip.MustParseAddr(a))
		}
	}
	return r
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, host)
	if a, ok := r.answers[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func (r *resolver) askedFor() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.asked...)
}

// client sends requests to p the way a command's HTTP_PROXY/HTTPS_PROXY would, through the
// socket; base carries TLS trust (an httptest TLS server's client transport) or is nil.
func client(t testing.TB, p *netproxy.Proxy, base *http.Transport) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	if base != nil {
		tr = base.Clone()
	}
	tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: "proxy.invalid"})
	tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", p.Path())
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// reply is a response read raw off the socket: what a command receives.
type reply struct {
	status int
	reason string // the status line after the code
	kind   string // the refusal header
	body   string
	conn   net.Conn
	reader *bufio.Reader
}

// send writes one raw request to the proxy and reads the response head and, for refusals,
// the body. For a 200 CONNECT the connection stays open as the tunnel.
func send(t testing.TB, p *netproxy.Proxy, raw string) reply {
	t.Helper()
	conn, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	method := strings.SplitN(raw, " ", 2)[0]
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", raw, err)
	}
	r := reply{status: resp.StatusCode, reason: strings.TrimPrefix(resp.Status, resp.Status[:4]),
		kind: resp.Header.Get(netproxy.RefusalHeader), conn: conn, reader: br}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		r.body = string(b)
	}
	return r
}

func connectRaw(hostport string) string {
	return "CONNECT " + hostport + " HTTP/1.1\r\nHost: " + hostport + "\r\n\r\n"
}

func getRaw(method, rawURL string) string {
	u, _ := url.Parse(rawURL)
	return method + " " + rawURL + " HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Length: 0\r\n\r\n"
}

// hello serves "hello from <Host header> <path>", so a test sees what reached the origin.
func hello() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello from "+r.Host+" "+r.URL.Path)
	})
}

func serverPort(t testing.TB, s *httptest.Server) string {
	t.Helper()
	_, port, err := net.SplitHostPort(s.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func wantKind(t testing.TB, err error, k errs.Kind) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != k {
		t.Fatalf("want %s, got %v", k, err)
	}
}

// tunnelOnce opens a tunnel through the proxy at path, sends msg and reads its echo: one CONNECT
// round trip, as a command's TLS handshake would start.
func tunnelOnce(path, hostport, msg string) error {
	conn, err := net.Dial("unix", path)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, connectRaw(hostport)+msg); err != nil {
		return err
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	buf := make([]byte, len(msg))
	if _, err := io.ReadFull(br, buf); err != nil {
		return err
	}
	if string(buf) != msg {
		return errors.New("echo: " + string(buf))
	}
	return nil
}
