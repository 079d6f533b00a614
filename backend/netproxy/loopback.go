package netproxy

import "testing"

// Loopback sends chosen names to 127.0.0.1 past the address check, so a test can reach an
// httptest server through the proxy under an approved name. The names still need the policy's
// approval, and the mode still applies; only the address check is skipped for them.
//
// Its fields are unexported and the only constructor takes a testing.TB, which production code
// never holds: a Config built outside a test cannot open loopback, by mistake or otherwise.
type Loopback struct {
	names map[string]bool
}

// LoopbackForTests returns a Loopback for names, and says so in the test's log.
func LoopbackForTests(tb testing.TB, names ...string) *Loopback {
	tb.Helper()
	l := &Loopback{names: map[string]bool{}}
	for _, n := range names {
		l.names[NormalHost(n)] = true
	}
	tb.Logf("netproxy: %v reach 127.0.0.1 for this test", names)
	return l
}

func (l *Loopback) covers(host string) bool { return l != nil && l.names[host] }
