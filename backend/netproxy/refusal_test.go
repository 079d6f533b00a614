package netproxy_test

import (
	"context"
	"net"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
)

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Every refusal is a status, a kind and one line that tells the model what happened and what
// to do. Each case aims at a live server on 127.0.0.1, so removing the check it tests would
// turn its refusal into a 200 (or, for unroutable addresses, a different kind).
func TestRefusals(t *testing.T) {
	srv := httptest.NewServer(hello())
	defer srv.Close()
	port := serverPort(t, srv)
	names := resolveTo(map[string]string{
		"loop.test": "127.0.0.1", "lan.test": "10.0.0.1", "meta.test": "169.254.169.254",
		"meta6.test": "fd00:ec2::254", "cgnat.test": "100.64.1.1", "mapped.test": "::ffff:127.0.0.1",
		"mixed.test": "93.184.215.14,127.0.0.1", "zero.test": "0.0.0.0", "v6loop.test": "::1",
		"linklocal6.test": "fe80::1", "multicast.test": "239.1.2.3",
	})
	everything := []string{"loop.test", "lan.test", "meta.test", "meta6.test", "cgnat.test", "mapped.test",
		"mixed.test", "zero.test", "v6loop.test", "linklocal6.test", "multicast.test", "127.0.0.1",
		"169.254.169.254", "ok.test"}
	var patterns []string
	for _, h := range everything {
		patterns = append(patterns, h+":"+port)
	}
	cases := []struct {
		name   string
		mode   netproxy.Mode
		raw    string
		status int
		kind   errs.Kind
		says   string
	}{
		{"an unapproved name", netproxy.Full, connectRaw("other.test:443"), 403, netproxy.NotApproved,
			"other.test (port 443) is not approved for this session; run the command again with escalate=network"},
		{"an approved name on another port", netproxy.Full, connectRaw("ok.test:1"), 403, netproxy.NotApproved, "ok.test (port 1)"},
		{"a name resolving to loopback", netproxy.Full, connectRaw("loop.test:" + port), 403, netproxy.AddressForbidden, "127.0.0.1 (loopback address)"},
		{"a loopback name forwarded", netproxy.Full, getRaw("GET", "http://loop.test:"+port+"/"), 403, netproxy.AddressForbidden, "(loopback address)"},
		{"a name resolving to a private address", netproxy.Full, connectRaw("lan.test:" + port), 403, netproxy.AddressForbidden, "10.0.0.1 (private address)"},
		{"a name resolving to the metadata service", netproxy.Full, connectRaw("meta.test:" + port), 403, netproxy.AddressForbidden, "169.254.169.254 (cloud metadata address)"},
		{"the IPv6 metadata service", netproxy.Full, connectRaw("meta6.test:" + port), 403, netproxy.AddressForbidden, "(cloud metadata address)"},
		{"carrier-grade NAT", netproxy.Full, connectRaw("cgnat.test:" + port), 403, netproxy.AddressForbidden, "(shared (carrier-grade NAT) address)"},
		{"loopback mapped into IPv6", netproxy.Full, connectRaw("mapped.test:" + port), 403, netproxy.AddressForbidden, "127.0.0.1 (loopback address)"},
		{"one forbidden answer among public ones", netproxy.Full, connectRaw("mixed.test:" + port), 403, netproxy.AddressForbidden, "(loopback address)"},
		{"the unspecified address", netproxy.Full, connectRaw("zero.test:" + port), 403, netproxy.AddressForbidden, "0.0.0.0 (unspecified address)"},
		{"IPv6 loopback", netproxy.Full, connectRaw("v6loop.test:" + port), 403, netproxy.AddressForbidden, "(loopback address)"},
		{"IPv6 link-local", netproxy.Full, connectRaw("linklocal6.test:" + port), 403, netproxy.AddressForbidden, "(link-local address)"},
		{"multicast", netproxy.Full, connectRaw("multicast.test:" + port), 403, netproxy.AddressForbidden, "239.1.2.3 (multicast address)"},
		{"a loopback IP literal, even approved", netproxy.Full, connectRaw("127.0.0.1:" + port), 403, netproxy.AddressForbidden, "(loopback address)"},
		{"an IPv6 loopback literal forwarded", netproxy.Full, getRaw("GET", "http://[::1]/"), 403, netproxy.AddressForbidden, "::1 (loopback address)"},
		{"the metadata IP literal forwarded", netproxy.Full, getRaw("GET", "http://169.254.169.254:"+port+"/latest/meta-data/"), 403, netproxy.AddressForbidden, "(cloud metadata address)"},
		{"POST in read-only", netproxy.ReadOnly, getRaw("POST", "http://ok.test:"+port+"/"), 403, netproxy.ReadOnlyMethod, "POST to ok.test was refused (only GET, HEAD and OPTIONS pass)"},
		{"CONNECT in read-only", netproxy.ReadOnly, connectRaw("ok.test:" + port), 403, netproxy.ReadOnlyTunnel, "the proxy cannot see whether requests inside it only read"},
		{"GET when off", netproxy.Off, getRaw("GET", "http://ok.test:"+port+"/"), 403, netproxy.NetworkOff, "the network is off for this session"},
		{"CONNECT when off", netproxy.Off, connectRaw("ok.test:" + port), 403, netproxy.NetworkOff, "ok.test was not contacted"},
		{"an unknown mode", netproxy.Mode("fulll"), getRaw("GET", "http://ok.test:"+port+"/"), 403, netproxy.NetworkOff, "the network is off"},
		{"a request that is not for a proxy", netproxy.Full, "GET / HTTP/1.1\r\nHost: ok.test\r\n\r\n", 400, netproxy.BadRequest, "full URL"},
		{"an https:// URL sent as a forward request", netproxy.Full, getRaw("GET", "https://ok.test:"+port+"/"), 400, netproxy.BadRequest, "https:// goes through CONNECT"},
		{"CONNECT without a port", netproxy.Full, connectRaw("ok.test"), 400, netproxy.BadRequest, "has no port"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := start(t, netproxy.Config{Mode: c.mode, Decide: allow(t, patterns...), Resolver: names})
			r := send(t, p, c.raw)
			if r.status != c.status || r.kind != string(c.kind) || !strings.Contains(r.body, c.says) {
				t.Fatalf("got %d %s %q; want %d %s saying %q", r.status, r.kind, r.body, c.status, c.kind, c.says)
			}
			line := strings.TrimSuffix(r.body, "\n")
			if !strings.HasPrefix(line, "agentdesk proxy: ") || strings.Contains(line, "\n") || r.reason != line {
				t.Fatalf("the refusal is not one prefixed line, also in the status: %q / %q", r.body, r.reason)
			}
		})
	}
}

// A name is resolved only after approval: an unapproved name never leaves as a DNS query, which
// a command could otherwise use to smuggle data out. An IP literal is checked before the policy
// is even asked.
func TestNothingIsResolvedOrAskedBeforeItsTurn(t *testing.T) {
	names := resolveTo(map[string]string{"secret-data.evil.test": "93.184.215.14"})
	var asked atomic.Int32
	decide := func(context.Context, string, int) netproxy.Verdict { asked.Add(1); return netproxy.Verdict{} }
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: decide, Resolver: names})
	if r := send(t, p, connectRaw("secret-data.evil.test:443")); r.kind != string(netproxy.NotApproved) {
		t.Fatalf("got %d %s", r.status, r.kind)
	}
	if got := names.askedFor(); len(got) != 0 {
		t.Fatalf("an unapproved name was resolved: %v", got)
	}
	if asked.Load() != 1 {
		t.Fatalf("the policy was asked %d times", asked.Load())
	}
	if r := send(t, p, connectRaw("169.254.169.254:80")); r.kind != string(netproxy.AddressForbidden) || asked.Load() != 1 {
		t.Fatalf("the metadata literal: %s, policy asked %d times", r.kind, asked.Load())
	}
	// An approved name is resolved exactly once per request: the check and the dial share the
	// answer, so a second, rebinding answer never gets the chance.
	lan := resolveTo(map[string]string{"lan.test": "10.0.0.1"})
	q := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "lan.test"), Resolver: lan})
	send(t, q, getRaw("GET", "http://lan.test/"))
	if got := lan.askedFor(); len(got) != 1 || got[0] != "lan.test" {
		t.Fatalf("resolutions for one request: %v", got)
	}
}

// A policy's own refusal reaches the command as it was given.
func TestPolicyRefusalReachesTheCommand(t *testing.T) {
	decide := func(_ context.Context, host string, _ int) netproxy.Verdict {
		return netproxy.Verdict{Refusal: errs.New(netproxy.ReadOnlyMethod, "Method", "PUT", "Host", host)}
	}
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: decide})
	if r := send(t, p, connectRaw("x.test:443")); r.kind != string(netproxy.ReadOnlyMethod) || !strings.Contains(r.body, "PUT to x.test") {
		t.Fatalf("got %s %q", r.kind, r.body)
	}
}

// The refusal events say what was refused and why, for the transcript.
func TestRefusalsAreLogged(t *testing.T) {
	var log events
	p := start(t, netproxy.Config{Mode: netproxy.ReadOnly, Decide: allow(t, "ok.test"), Log: log.log})
	send(t, p, getRaw("DELETE", "http://ok.test/x"))
	send(t, p, connectRaw("nope.test:443"))
	got := log.all()
	if len(got) != 2 || got[0].Allowed || got[0].Method != "DELETE" || got[0].Host != "ok.test" || got[0].Port != 80 ||
		got[0].Refusal.Kind != netproxy.ReadOnlyMethod || got[1].Method != "CONNECT" || got[1].Refusal.Kind != netproxy.ReadOnlyTunnel {
		t.Fatalf("events %+v", got)
	}
}

// A read-only session cannot open a WebSocket through a GET: it would carry writes.
func TestReadOnlyRefusesUpgrades(t *testing.T) {
	p := start(t, netproxy.Config{Mode: netproxy.ReadOnly, Decide: allow(t, "ok.test")})
	raw := "GET http://ok.test/ws HTTP/1.1\r\nHost: ok.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"
	if r := send(t, p, raw); r.kind != string(netproxy.ReadOnlyMethod) {
		t.Fatalf("got %d %s", r.status, r.kind)
	}
}

// A name pointing at one of this machine's own public addresses is refused too: a service bound
// to all interfaces would otherwise be one approved-looking name away. A server listens there,
// so without the check the request would get through.
func TestOwnAddressIsRefused(t *testing.T) {
	own := publicOwnAddr(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(own.String(), "0"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(hello())
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	port := serverPort(t, srv)
	names := resolveTo(map[string]string{"self.test": own.String()})
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "self.test:"+port), Resolver: names})
	r := send(t, p, getRaw("GET", "http://self.test:"+port+"/"))
	if r.kind != string(netproxy.AddressForbidden) || !strings.Contains(r.body, own.String()+" (this machine's own address)") {
		t.Fatalf("got %d %s %q", r.status, r.kind, r.body)
	}
}

// publicOwnAddr is an address of this machine that no other class covers (not loopback,
// private or link-local), or the test is skipped, saying so.
func publicOwnAddr(t *testing.T) netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		ip := p.Addr().Unmap()
		if err == nil && ip.Is4() && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() &&
			!netip.MustParsePrefix("100.64.0.0/10").Contains(ip) {
			return ip
		}
	}
	t.Skip("this machine has no public IPv4 interface address to point a name at")
	return netip.Addr{}
}
