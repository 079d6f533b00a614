package policy

import (
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// MCP tools are decided like every other call, as their own kind, in the same fixed order:
//
//  1. hard deny: none in chat; in a mode that may not mutate (propose, analyze, plan, and any
//     unknown mode) only tools whose annotations say read-only pass, the rest are denied;
//  2. deny rules on "server/tool" (mcp:github/delete_repo, mcp:github/*, mcp:*/delete_*);
//  3. grants and always-allow rules, exact by default: the one tool of the one server;
//  4. the permission mode: Full access runs them in the mutating modes, Ask and Auto ask (Auto's
//     read-only class knows nothing of what a server does); in the read-only modes a tool let
//     through on its read-only annotation still asks, in every permission mode.
//
// Annotations are the server's hints, never a permission: the read-only hint decides only
// whether a read-only mode may call the tool at all, and never makes a call run without asking.

// MCPCall names the tool of an MCP call.
type MCPCall struct {
	Server string
	Tool   string
	// ReadOnlyHint is the tool's readOnlyHint annotation, as pinned when the person enabled it.
	ReadOnlyHint bool
}

// Name is the call as rules spell it: "server/tool".
func (c MCPCall) Name() string { return c.Server + "/" + c.Tool }

// named reports whether the call names both its server and its tool; one that does not asks.
func (c MCPCall) named() bool { return c.Server != "" && c.Tool != "" }

// MCPRulePrefix is how rules and grants on MCP tools are written for people: mcp:server/tool.
const MCPRulePrefix = "mcp:"

// hardDenyMCP is layer 1 for an MCP call: the MCP column of the mode's profile.
func hardDenyMCP(m mode.ExecutionMode, c MCPCall) (errs.Kind, bool) {
	switch {
	case m.OffersMCP(c.ReadOnlyHint):
		return "", false
	case m == mode.ModeChat:
		return ToolDisabledInChat, true
	}
	return MCPDisabledInReadOnly, true
}

// mcpVerdict is layer 4 for an MCP call under a valid permission mode.
func mcpVerdict(m mode.ExecutionMode, p PermissionMode) Verdict {
	switch {
	case !m.OffersMCP(false):
		return ask(LayerMode, "", "gate.reason.mcp_read_only_hint")
	case p.MCPRuns():
		return allow(LayerMode, "gate.reason.full_access")
	}
	return ask(LayerMode, "", "gate.reason.mcp_ask")
}

// appliesToMCP is appliesTo where an MCP rule or an MCP call is involved: an MCP rule applies
// to MCP calls only, and an MCP call is matched only by MCP rules (or a rule of kind mcp that
// names nothing, which covers every MCP tool).
func (r Rule) appliesToMCP(k Kind) bool {
	if k != KindMCP || r.Path != "" || r.Command != "" {
		return false
	}
	return r.Kind == KindMCP || r.Kind == "" && r.MCP != ""
}

// matchMCP matches "server/tool". An allow rule matches the one tool exactly unless the person
// chose a pattern; a deny rule is always a pattern. In a pattern "*" stands for any run of
// characters, and a server alone ("github") means all of its tools.
func (r Rule) matchMCP(c MCPCall) ruleMatch {
	if r.MCP == "" {
		return matched
	}
	if r.Effect == Allow && r.Scope != ScopePattern {
		if r.MCP == c.Name() {
			return matched
		}
		return noMatch
	}
	server, tool, ok := strings.Cut(r.MCP, "/")
	if !ok {
		tool = "*"
	}
	if wildMatch(server, c.Server) && wildMatch(tool, c.Tool) {
		return matched
	}
	return noMatch
}

// wildMatch matches s against pattern, in which "*" stands for any run of characters (slashes
// included: a tool name may hold one) and every other character for itself.
func wildMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last)
}

// ParseMCPRule reads "mcp:server/tool", "mcp:server/*" or "mcp:server" (the prefix optional)
// as a rule pattern; ok is false when it names no server, or a tool without a server.
func ParseMCPRule(s string) (pattern string, ok bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), MCPRulePrefix)
	server, tool, hasTool := strings.Cut(s, "/")
	if server == "" || hasTool && tool == "" || strings.ContainsAny(s, " \t\n") {
		return "", false
	}
	return s, true
}
