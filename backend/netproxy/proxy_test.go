package netproxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"agentdesk/backend/netproxy"
)

// An approved name reaches an HTTPS server through CONNECT; the proxy dials the checked
// address and logs the tunnel.
func TestConnectReachesApprovedName(t *testing.T) {
	srv := httptest.NewTLSServer(hello()) // its certificate names example.com
	defer srv.Close()
	port := serverPort(t, srv)
	var log events
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "example.com:"+port),
		Loopback: netproxy.LoopbackForTests(t, "example.com"), Log: log.log})

	resp, err := client(t, p, srv.Client().Transport.(*http.Transport)).Get("https://example.com:" + port + "/pkg")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "hello from example.com:" + port + " /pkg"; string(body) != want {
		t.Fatalf("got %q, want %q", body, want)
	}
	got := log.all()
	if len(got) != 1 || got[0].Method != "CONNECT" || got[0].Host != "example.com" || !got[0].Allowed ||
		got[0].Address != netip.MustParseAddr("127.0.0.1") || got[0].Refusal != nil {
		t.Fatalf("events %+v", got)
	}
}

// A plain http:// request goes through as a forward request, Host header and path intact; the
// proxy's own headers stay with the proxy.
func TestForwardGETReachesApprovedName(t *testing.T) {
	var proxyAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxyAuth = r.Header.Get("Proxy-Authorization")
		hello().ServeHTTP(w, r)
	}))
	defer srv.Close()
	port := serverPort(t, srv)
	var log events
	p := start(t, netproxy.Config{Mode: netproxy.ReadOnly, Decide: allow(t, "registry.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "registry.test"), Log: log.log})

	req, _ := http.NewRequest("GET", "http://registry.test:"+port+"/left-pad", nil)
	req.Header.Set("Proxy-Authorization", "Basic c2VjcmV0")
	resp, err := client(t, p, nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "hello from registry.test:" + port + " /left-pad"; resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("got %d %q, want %q", resp.StatusCode, body, want)
	}
	if proxyAuth != "" {
		t.Fatalf("the origin saw the proxy's credentials: %q", proxyAuth)
	}
	if got := log.all(); len(got) != 1 || got[0].Method != "GET" || !got[0].Allowed || got[0].Port != atoi(t, port) {
		t.Fatalf("events %+v", got)
	}
}

// A CONNECT whose dial fails is a 502 naming the host, not a 403: the policy allowed it.
func TestUnreachableApprovedHostIsBadGateway(t *testing.T) {
	srv := httptest.NewServer(hello())
	port := serverPort(t, srv)
	srv.Close() // nothing listens there any more
	var log events
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "gone.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "gone.test"), Log: log.log})
	for _, raw := range []string{connectRaw("gone.test:" + port), getRaw("GET", "http://gone.test:"+port+"/")} {
		r := send(t, p, raw)
		if r.status != http.StatusBadGateway || r.kind != string(netproxy.DialFailed) ||
			!strings.Contains(r.body, "gone.test could not be reached: connection refused") {
			t.Fatalf("%q: %d %s %q", raw, r.status, r.kind, r.body)
		}
	}
	got := log.all()
	if len(got) != 2 || got[0].Allowed || got[1].Allowed || got[0].Refusal.Kind != netproxy.DialFailed ||
		got[1].Refusal.Kind != netproxy.DialFailed || got[1].Method != "GET" {
		t.Fatalf("events %+v", got)
	}
}

// The origin sees the approved name as the Host, whatever Host header the command added: the
// URL's host is the one that was judged.
func TestForwardSendsTheJudgedHost(t *testing.T) {
	srv := httptest.NewServer(hello())
	defer srv.Close()
	port := serverPort(t, srv)
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "ok.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "ok.test")})
	raw := "GET http://ok.test:" + port + "/x HTTP/1.1\r\nHost: internal.corp\r\nConnection: close\r\n\r\n"
	r := send(t, p, raw)
	body, _ := io.ReadAll(r.reader)
	if r.status != 200 || string(body) != "hello from ok.test:"+port+" /x" {
		t.Fatalf("got %d %q", r.status, body)
	}
}
