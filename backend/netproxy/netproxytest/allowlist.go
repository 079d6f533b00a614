// Package netproxytest holds what the proxy's tests and the shell's network tests decide with:
// an allowlist of host patterns that answers at once and never asks anyone. The app decides
// through the person instead (backend/agent's host decider).
package netproxytest

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"

	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
)

// defaultPorts are the ports a host-level approval covers: plain HTTP and HTTPS. Any other port
// needs an explicit host:port entry, so approving a web host does not open its SSH or database.
var defaultPorts = []int{80, 443}

// Allowlist is the simplest policy: a fixed set of approved hosts. It is safe for concurrent
// use, so a test may add a host while other connections are served.
// Patterns:
//
//	example.com         exactly that host, on the default ports
//	example.com:8443    exactly that host, on that port only
//	*.example.com       any subdomain of example.com (not example.com itself), default ports
//	*.example.com:8443  the same, on that port only
//
// A wildcard matches only where the person wrote one: example.com never covers its subdomains.
type Allowlist struct {
	mu      sync.RWMutex
	entries map[entry]bool
}

// entry is one parsed pattern: a host or a ".domain" suffix, and a port (0 for the defaults).
type entry struct {
	host string
	port int
}

// NewAllowlist returns an allowlist holding patterns, or the first invalid pattern's error.
func NewAllowlist(patterns ...string) (*Allowlist, error) {
	a := &Allowlist{entries: map[entry]bool{}}
	for _, p := range patterns {
		if err := a.Add(p); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Add approves one more pattern.
func (a *Allowlist) Add(pattern string) error {
	e, err := parsePattern(pattern)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.entries == nil {
		a.entries = map[entry]bool{}
	}
	a.entries[e] = true
	return nil
}

// Decide is a Config.Decide: it answers at once and never asks anyone.
func (a *Allowlist) Decide(_ context.Context, host string, port int) netproxy.Verdict {
	if a.allows(netproxy.NormalHost(host), port) {
		return netproxy.Approve()
	}
	return netproxy.Verdict{}
}

func (a *Allowlist) allows(host string, port int) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	for _, name := range candidates(host) {
		if a.entries[entry{name, port}] {
			return true
		}
		if isDefaultPort(port) && a.entries[entry{name, 0}] {
			return true
		}
	}
	return false
}

// candidates are the keys an allowlist may hold for host: the host itself, then the ".suffix"
// of every parent domain (a.b.example.com: .b.example.com, .example.com, .com).
func candidates(host string) []string {
	out := []string{host}
	for i := 0; i < len(host); i++ {
		if host[i] == '.' {
			out = append(out, host[i:])
		}
	}
	return out
}

func isDefaultPort(port int) bool {
	for _, p := range defaultPorts {
		if p == port {
			return true
		}
	}
	return false
}

func parsePattern(pattern string) (entry, error) {
	bad := errs.New(netproxy.InvalidPattern, "Pattern", pattern)
	host, port := netproxy.NormalHost(pattern), 0
	if h, p, err := net.SplitHostPort(host); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return entry{}, bad
		}
		host, port = h, n
	}
	wildcard := strings.HasPrefix(host, "*.")
	if wildcard {
		host = host[1:] // keep the dot: ".example.com" is the suffix form candidates yields
	}
	if !netproxy.ValidHost(strings.TrimPrefix(host, ".")) {
		return entry{}, bad
	}
	// "*.com" would approve a whole top-level domain: surely a slip, never what a person meant.
	if wildcard && !strings.Contains(host[1:], ".") {
		return entry{}, bad
	}
	return entry{host, port}, nil
}
