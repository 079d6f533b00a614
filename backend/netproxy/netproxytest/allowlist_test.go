package netproxytest_test

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/netproxy/netproxytest"
)

// Hosts match exactly; a wildcard only where the person wrote one; a host-level approval covers
// ports 80 and 443, any other port only when named.
func TestAllowlistMatching(t *testing.T) {
	a, err := netproxytest.NewAllowlist("registry.npmjs.org", "*.pythonhosted.org", "git.example.com:2222", "Example.ORG.")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		host string
		port int
		want bool
	}{
		{"registry.npmjs.org", 443, true},
		{"registry.npmjs.org", 80, true},
		{"REGISTRY.npmjs.org.", 443, true},
		{"registry.npmjs.org", 8080, false},
		{"evil-registry.npmjs.org", 443, false},
		{"npmjs.org", 443, false},
		{"sub.registry.npmjs.org", 443, false}, // an exact entry never covers subdomains
		{"files.pythonhosted.org", 443, true},
		{"a.b.pythonhosted.org", 443, true},
		{"pythonhosted.org", 443, false}, // *.x covers subdomains only
		{"evilpythonhosted.org", 443, false},
		{"git.example.com", 2222, true},
		{"git.example.com", 443, false}, // a port entry is that port only
		{"example.org", 443, true},
	}
	for _, c := range cases {
		if got := a.Decide(t.Context(), c.host, c.port).Allow; got != c.want {
			t.Errorf("%s:%d allowed=%v, want %v", c.host, c.port, got, c.want)
		}
	}
}

func TestAllowlistRefusesPatternsNoOneMeans(t *testing.T) {
	for _, p := range []string{"", "*", "*.com", "a.*.com", "exa mple.com", "example.com:0", "example.com:99999", "example.com:http", "**.example.com"} {
		if _, err := netproxytest.NewAllowlist(p); errs.KindOf(err) != netproxy.InvalidPattern {
			t.Fatalf("%q: want %s, got %v", p, netproxy.InvalidPattern, err)
		}
	}
	a, _ := netproxytest.NewAllowlist()
	if a.Decide(t.Context(), "example.com", 443).Allow {
		t.Fatal("an empty allowlist allowed a host")
	}
	if err := a.Add("example.com"); err != nil || !a.Decide(t.Context(), "example.com", 443).Allow {
		t.Fatalf("a host added later: %v", err)
	}
}
