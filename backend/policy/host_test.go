package policy

import "testing"

func TestHostApprovalsAreExactUnlessThePersonTypedAWildcard(t *testing.T) {
	grants := []Grant{{Kind: KindHost, Command: "registry.npmjs.org"}, {Kind: KindBash, Command: "example.com"}}
	rules := []Rule{{Kind: KindHost, Effect: Allow, Command: "*.pythonhosted.org"}, {Kind: KindHost, Effect: Deny, Command: "evil.example"},
		{Kind: KindHost, Effect: Allow, Command: "evil.example"}, {Kind: KindHost, Effect: "damaged", Command: "damaged.example"}}
	for host, want := range map[string]bool{
		"registry.npmjs.org":            true,
		"Registry.NPMjs.org.":           true,
		"npmjs.org":                     false,
		"evil.registry.npmjs.org":       false,
		"files.pythonhosted.org":        true,
		"pythonhosted.org":              false,
		"example.com":                   false, // a bash grant is no host approval
		"damaged.example":               false,
		"registry.npmjs.org.evil.test":  false,
		"files.pythonhosted.org.attack": false,
	} {
		if got := HostApproved(grants, rules, host); got != want {
			t.Errorf("HostApproved(%q) = %v, want %v", host, got, want)
		}
	}
	if !HostDenied(rules, "evil.example") || !HostDenied(rules, "damaged.example") || HostDenied(rules, "registry.npmjs.org") {
		t.Error("a deny rule (or a damaged one) must deny its host, and only it")
	}
}

func TestHostGrantsMatchNoCall(t *testing.T) {
	g := Grant{Kind: KindHost, Command: "git"}
	sh := AnalyzeShell("git status", nil)
	for _, k := range Kinds {
		c := Resolved{Call: Call{Kind: k, Command: "git status", Path: "x"}, Target: Target{Resolved: true, Inside: true, Rel: "x"}}
		if g.rule().match(c, &sh) != noMatch {
			t.Errorf("a host grant matches a %s call", k)
		}
	}
}
