package netproxy_test

import (
	"strconv"
	"testing"

	"agentdesk/backend/netproxy"
)

// One CONNECT round trip as a command makes it: connect to the socket, CONNECT, policy,
// address check, dial, 200, one message echoed through the tunnel, close.
func BenchmarkConnectRoundTrip(b *testing.B) {
	port := echoServer(b)
	p := start(b, netproxy.Config{Mode: netproxy.Full, Decide: allow(b, "echo.test:"+port),
		Loopback: netproxy.LoopbackForTests(b, "echo.test")})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := tunnelOnce(p.Path(), "echo.test:"+port, strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// A refusal by the address check, the path the loopback hook skips above: CONNECT, approval,
// resolution, the check (reading this machine's addresses included), the 403 line.
func BenchmarkConnectRefusedByAddressCheck(b *testing.B) {
	names := resolveTo(map[string]string{"lan.test": "10.0.0.1"})
	p := start(b, netproxy.Config{Mode: netproxy.Full, Decide: allow(b, "lan.test"), Resolver: names})
	b.ReportAllocs()
	for b.Loop() {
		if err := tunnelOnce(p.Path(), "lan.test:443", "x"); err == nil {
			b.Fatal("a private address got through")
		}
	}
}
