package policy

import (
	"fmt"
	"slices"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

const mcpDeny = "deny MCP_DISABLED_IN_READ_ONLY"

// mcpTable pins every cell of execution mode × permission mode × MCP tool, for a tool whose
// annotations say read-only and one whose annotations do not, with no rule and no grant.
// Written out by hand, like gateTable.
var mcpTable = []struct {
	mode mode.ExecutionMode
	perm PermissionMode
	want [2]string // marked read-only, not marked read-only
}{
	{"chat", Ask, [2]string{chatDeny, chatDeny}},
	{"chat", Auto, [2]string{chatDeny, chatDeny}},
	{"chat", Full, [2]string{chatDeny, chatDeny}},

	{"propose", Ask, [2]string{asks, mcpDeny}},
	{"propose", Auto, [2]string{asks, mcpDeny}},
	{"propose", Full, [2]string{asks, mcpDeny}},

	{"analyze", Ask, [2]string{asks, mcpDeny}},
	{"analyze", Auto, [2]string{asks, mcpDeny}},
	{"analyze", Full, [2]string{asks, mcpDeny}},

	{"plan", Ask, [2]string{asks, mcpDeny}},
	{"plan", Auto, [2]string{asks, mcpDeny}},
	{"plan", Full, [2]string{asks, mcpDeny}},

	{"execute", Ask, [2]string{asks, asks}},
	{"execute", Auto, [2]string{asks, asks}},
	{"execute", Full, [2]string{allowed, allowed}},

	{"debug", Ask, [2]string{asks, asks}},
	{"debug", Auto, [2]string{asks, asks}},
	{"debug", Full, [2]string{allowed, allowed}},

	{"verified", Ask, [2]string{asks, asks}},
	{"verified", Auto, [2]string{asks, asks}},
	{"verified", Full, [2]string{allowed, allowed}},

	// Unknown and legacy execution modes: the read-only row.
	{"agent", Full, [2]string{asks, mcpDeny}},
	{"", Full, [2]string{asks, mcpDeny}},
	// Unknown permission modes ask, never allow.
	{"execute", "bypass", [2]string{asks, asks}},
	{"execute", "", [2]string{asks, asks}},
}

func mcpCall(server, tool string, readOnly bool) Resolved {
	return Resolved{Call: Call{Kind: KindMCP, MCP: MCPCall{Server: server, Tool: tool, ReadOnlyHint: readOnly}}}
}

func TestMCPGateTable(t *testing.T) {
	seen := map[string]bool{}
	for _, row := range mcpTable {
		for i, readOnly := range []bool{true, false} {
			want := row.want[i]
			seen[fmt.Sprint(row.mode, "/", row.perm, "/", readOnly)] = true
			marked := "an MCP tool marked read-only"
			if !readOnly {
				marked = "an MCP tool not marked read-only"
			}
			name := sentence(row.mode, row.perm, Kind(marked), want)
			t.Run(name, func(t *testing.T) {
				v := Evaluate(Input{SensitiveMasked: true, Mode: row.mode, Permission: row.perm, Call: mcpCall("github", "create_issue", readOnly)})
				if got := verdictString(v); got != want {
					t.Fatalf("got %s (layer %s, reason %s), want %s", got, v.Layer, v.ReasonKey, want)
				}
			})
		}
	}
	for _, m := range mode.ExecutionModes {
		for _, p := range PermissionModes {
			for _, readOnly := range []bool{true, false} {
				if !seen[fmt.Sprint(m, "/", p, "/", readOnly)] {
					t.Errorf("cell %s × %s × mcp (read-only %v) is not pinned", m, p, readOnly)
				}
			}
		}
	}
}

// Every call kind is pinned by one of the two tables.
func TestEveryKindHasATable(t *testing.T) {
	for _, k := range Kinds {
		if !slices.Contains(gateKinds, k) && k != KindMCP {
			t.Errorf("kind %s is in neither gate table", k)
		}
	}
}

func TestMCPRulesAndGrants(t *testing.T) {
	create := mcpCall("github", "create_issue", false)
	search := mcpCall("github", "search", true)
	other := mcpCall("gitlab", "create_issue", false)
	slashed := mcpCall("github", "repos/delete", false)
	cases := []struct {
		name     string
		in       Input
		decision Decision
		layer    Layer
		code     errs.Kind
	}{
		{"a deny rule on the tool holds under full access", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: create,
			Rules: []Rule{{ID: "d", Effect: Deny, MCP: "github/create_issue"}}}, DecideDeny, LayerRule, DeniedByRule},
		{"a deny rule on the server covers all its tools", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: create,
			Rules: []Rule{{ID: "d", Effect: Deny, MCP: "github"}}}, DecideDeny, LayerRule, DeniedByRule},
		{"a deny rule server/* covers a tool with a slash", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: slashed,
			Rules: []Rule{{ID: "d", Effect: Deny, MCP: "github/*"}}}, DecideDeny, LayerRule, DeniedByRule},
		{"a deny rule across servers", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: other,
			Rules: []Rule{{ID: "d", Effect: Deny, MCP: "*/create_*"}}}, DecideDeny, LayerRule, DeniedByRule},
		{"a deny rule on another server does not apply", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: other,
			Rules: []Rule{{ID: "d", Effect: Deny, MCP: "github/*"}}}, DecideAllow, LayerMode, ""},
		{"a kind-wide deny rule covers every MCP tool", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: other,
			Rules: []Rule{{ID: "d", Effect: Deny, Kind: KindMCP}}}, DecideDeny, LayerRule, DeniedByRule},
		{"a deny rule outranks a grant", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: create,
			Rules:  []Rule{{ID: "d", Effect: Deny, MCP: "github/create_issue"}},
			Grants: []Grant{{Kind: KindMCP, MCP: "github/create_issue"}}}, DecideDeny, LayerRule, DeniedByRule},
		{"an allow rule runs the tool in ask", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: create,
			Rules: []Rule{{ID: "a", Effect: Allow, Kind: KindMCP, MCP: "github/create_issue"}}}, DecideAllow, LayerRule, ""},
		{"an exact allow rule is that tool only", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: search,
			Rules: []Rule{{ID: "a", Effect: Allow, Kind: KindMCP, MCP: "github/create_issue"}}}, DecideAsk, LayerMode, ""},
		{"an allow rule server/* without the pattern scope is literal", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: create,
			Rules: []Rule{{ID: "a", Effect: Allow, MCP: "github/*"}}}, DecideAsk, LayerMode, ""},
		{"an allow rule server/* chosen as a pattern covers the server", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: create,
			Rules: []Rule{{ID: "a", Effect: Allow, MCP: "github/*", Scope: ScopePattern}}}, DecideAllow, LayerRule, ""},
		{"a pattern for one server does not reach another", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: other,
			Rules: []Rule{{ID: "a", Effect: Allow, MCP: "github/*", Scope: ScopePattern}}}, DecideAsk, LayerMode, ""},
		{"a grant runs the same tool in auto", Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Call: create,
			Grants: []Grant{{Kind: KindMCP, MCP: "github/create_issue", Scope: ScopeExact}}}, DecideAllow, LayerGrant, ""},
		{"a grant for the same tool of another server does not apply", Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Call: other,
			Grants: []Grant{{Kind: KindMCP, MCP: "github/create_issue"}}}, DecideAsk, LayerMode, ""},
		{"a grant with a prefix scope stays exact", Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Call: create,
			Grants: []Grant{{Kind: KindMCP, MCP: "github", Scope: ScopePrefix}}}, DecideAsk, LayerMode, ""},
		{"a grant cannot lift the plan mode's hard deny", Input{SensitiveMasked: true, Mode: "plan", Permission: Full, Call: create,
			Grants: []Grant{{Kind: KindMCP, MCP: "github/create_issue"}}}, DecideDeny, LayerProfile, MCPDisabledInReadOnly},
		{"a grant runs a read-only-marked tool in plan", Input{SensitiveMasked: true, Mode: "plan", Permission: Ask, Call: search,
			Grants: []Grant{{Kind: KindMCP, MCP: "github/search"}}}, DecideAllow, LayerGrant, ""},
		{"a bash rule never covers an MCP call", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: create,
			Rules: []Rule{{ID: "a", Effect: Allow, Kind: KindBash}}}, DecideAsk, LayerMode, ""},
		{"an MCP rule never covers a bash call", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Call: Resolved{Call: Call{Kind: KindBash, Command: "ls"}},
			Rules: []Rule{{ID: "a", Effect: Allow, Kind: KindMCP}}}, DecideAsk, LayerMode, ""},
		{"a path deny rule never covers an MCP call", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: create,
			Rules: []Rule{{ID: "d", Effect: Deny, Path: "**"}}}, DecideAllow, LayerMode, ""},
		{"an unnamed MCP call asks even with full access", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: mcpCall("", "x", false)},
			DecideAsk, LayerMode, ""},
		{"an unknown permission mode ignores an MCP grant", Input{SensitiveMasked: true, Mode: "execute", Permission: "yolo", Call: create,
			Grants: []Grant{{Kind: KindMCP, MCP: "github/create_issue"}}}, DecideAsk, LayerMode, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Evaluate(c.in)
			if v.Decision != c.decision || v.Layer != c.layer || v.Code != c.code {
				t.Fatalf("got %s/%s/%s (%s), want %s/%s/%s", v.Decision, v.Layer, v.Code, v.ReasonKey, c.decision, c.layer, c.code)
			}
		})
	}
}

func TestMCPDenyNamesTheTool(t *testing.T) {
	v := Evaluate(Input{SensitiveMasked: true, Mode: "plan", Permission: Ask, Call: mcpCall("github", "create_issue", false)})
	if e := errs.As(v.Err()); e.Kind != MCPDisabledInReadOnly || e.Args["Tool"] != "github/create_issue" || e.Args["Mode"] != "plan" {
		t.Fatalf("deny error = %v", v.Err())
	}
}

func TestParseMCPRule(t *testing.T) {
	for in, want := range map[string]string{
		"mcp:github/create_issue": "github/create_issue", "github/*": "github/*", " mcp:github ": "github", "mcp:*/delete_*": "*/delete_*",
	} {
		if got, ok := ParseMCPRule(in); !ok || got != want {
			t.Errorf("ParseMCPRule(%q) = %q, %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "mcp:", "/tool", "mcp:github/", "git hub/x"} {
		if _, ok := ParseMCPRule(in); ok {
			t.Errorf("ParseMCPRule(%q) must refuse", in)
		}
	}
}

func TestWildMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true}, {"*", "a/b", true}, {"a*", "abc", true}, {"*c", "abc", true}, {"a*c", "abc", true},
		{"a*c", "ab", false}, {"a*b*c", "axbyc", true}, {"a*b*c", "acb", false}, {"abc", "abc", true}, {"abc", "abd", false},
		{"a?c", "abc", false}, {"delete_*", "delete_repo", true}, {"**", "x", true},
	} {
		if got := wildMatch(c.pattern, c.s); got != c.want {
			t.Errorf("wildMatch(%q, %q) = %v", c.pattern, c.s, got)
		}
	}
}

// FuzzMCPHintNeverWidens checks the MCP cells against any mode, permission, names, rule and
// grant: in the mutating modes the read-only annotation changes nothing; it never makes a call
// run on its own (only Full access in a mutating mode, a grant or an always-allow rule do); an
// unknown permission never allows; an unknown mode decides exactly as analyze; and an exact rule
// for one server's tool never allows another server's.
func FuzzMCPHintNeverWidens(f *testing.F) {
	f.Add("plan", "full", "github", "search", "github/search", "github/search", uint8(0))
	f.Add("execute", "auto", "github", "create", "github/*", "gitlab/create", uint8(1))
	f.Add("agent", "ask", "a", "b/c", "a", "*/b*", uint8(2))
	f.Fuzz(func(t *testing.T, rawMode, rawPerm, server, tool, rulePattern, grantPattern string, flags uint8) {
		m, p := mode.ExecutionMode(rawMode), PermissionMode(rawPerm)
		effect := Allow
		if flags&1 != 0 {
			effect = Deny
		}
		scope := ScopeExact
		if flags&2 != 0 {
			scope = ScopePattern
		}
		rules := []Rule{{ID: "r", Effect: effect, Kind: KindMCP, MCP: rulePattern, Scope: scope}}
		grants := []Grant{{Kind: KindMCP, MCP: grantPattern}}
		eval := func(readOnly bool, rules []Rule, grants []Grant) Verdict {
			return Evaluate(Input{SensitiveMasked: true, Mode: m, Permission: p, Rules: rules, Grants: grants, Call: mcpCall(server, tool, readOnly)})
		}
		hinted, plain := eval(true, rules, grants), eval(false, rules, grants)
		if m.OffersMCP(false) && (hinted.Decision != plain.Decision || hinted.Layer != plain.Layer) {
			t.Fatalf("in %q the read-only hint changed %s/%s into %s/%s", m, plain.Decision, plain.Layer, hinted.Decision, hinted.Layer)
		}
		if hinted.Decision == DecideAllow && hinted.Layer == LayerMode && !(m.OffersMCP(false) && p == Full) {
			t.Fatalf("mode %q / permission %q ran an MCP tool on its read-only hint alone", m, p)
		}
		if bare := eval(true, nil, nil); bare.Decision == DecideAllow && !(p == Full && m.OffersMCP(false)) {
			t.Fatalf("mode %q / permission %q allowed an MCP tool without any rule or grant", m, p)
		}
		if !p.Valid() && (hinted.Decision == DecideAllow || plain.Decision == DecideAllow) {
			t.Fatalf("an unrecognized permission %q allowed an MCP tool", p)
		}
		if !m.Known() {
			asAnalyze := Evaluate(Input{SensitiveMasked: true, Mode: mode.ModeAnalyze, Permission: p, Rules: rules, Grants: grants, Call: mcpCall(server, tool, true)})
			if hinted.Decision != asAnalyze.Decision || hinted.Layer != asAnalyze.Layer {
				t.Fatalf("unknown mode %q decided %s/%s, analyze %s/%s", m, hinted.Decision, hinted.Layer, asAnalyze.Decision, asAnalyze.Layer)
			}
		}
		if server != "" && !slices.Contains([]string{"", "*"}, rulePattern) {
			other := mcpCall(server+"x", tool, true)
			onlyThis := Rule{ID: "r", Effect: Allow, Kind: KindMCP, MCP: server + "/" + tool}
			if v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Rules: []Rule{onlyThis}, Call: other}); v.Decision == DecideAllow {
				t.Fatalf("an exact rule for %s/%s allowed %sx/%s", server, tool, server, tool)
			}
		}
	})
}
