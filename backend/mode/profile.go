package mode

// Tool is the name of a tool as offered to the model.
type Tool string

const (
	ToolRead         Tool = "read"
	ToolGlob         Tool = "glob"
	ToolGrep         Tool = "grep"
	ToolBash         Tool = "bash"
	ToolEdit         Tool = "edit"
	ToolWrite        Tool = "write"
	ToolAskUser      Tool = "ask_user"
	ToolExitPlanMode Tool = "exit_plan_mode"
)

// Profile is one row of the R-MODE-4 table. Tools is both the soft layer (what the model is
// offered) and the hard layer (what the gate lets through before the permission mode is asked).
type Profile struct {
	Mode      ExecutionMode
	Tools     []Tool
	MayMutate bool // true means "as far as the permission mode allows"
	// DebugPrompt asks the agent to add the debugging section to the system prompt.
	DebugPrompt bool
	// RequiresVerification means the turn cannot end as done until a verification command it ran
	// has passed, or it reports honestly that verification fails.
	RequiresVerification bool
	// MCP is how much of the MCP servers' tools the mode offers and lets through the hard layer.
	MCP MCPAccess
}

// MCPAccess is the MCP column of the R-MODE-4 table.
type MCPAccess string

const (
	// MCPNone: no MCP tool at all (chat).
	MCPNone MCPAccess = ""
	// MCPReadOnly: only tools whose annotations say read-only. The annotation is the server's
	// hint: it lets a tool be offered here, never run without asking (backend/policy).
	MCPReadOnly MCPAccess = "read_only"
	// MCPAll: every tool, as far as the permission mode allows.
	MCPAll MCPAccess = "all"
)

var (
	readTools = []Tool{ToolRead, ToolGlob, ToolGrep}
	planTools = []Tool{ToolRead, ToolGlob, ToolGrep, ToolAskUser, ToolExitPlanMode}
	// allTools is "all" in the spec table. exit_plan_mode is left out on purpose: outside plan mode
	// there is no plan to leave, and offering it would only invite a confused call.
	allTools = []Tool{ToolRead, ToolGlob, ToolGrep, ToolBash, ToolEdit, ToolWrite, ToolAskUser}
)

// profiles is the one table (R-MODE-4). Keep it the only place that says what a mode may do.
var profiles = map[ExecutionMode]Profile{
	ModeChat:     {Mode: ModeChat},
	ModePropose:  {Mode: ModePropose, Tools: readTools, MCP: MCPReadOnly},
	ModeAnalyze:  {Mode: ModeAnalyze, Tools: readTools, MCP: MCPReadOnly},
	ModePlan:     {Mode: ModePlan, Tools: planTools, MCP: MCPReadOnly},
	ModeExecute:  {Mode: ModeExecute, Tools: allTools, MayMutate: true, MCP: MCPAll},
	ModeDebug:    {Mode: ModeDebug, Tools: allTools, MayMutate: true, DebugPrompt: true, MCP: MCPAll},
	ModeVerified: {Mode: ModeVerified, Tools: allTools, MayMutate: true, RequiresVerification: true, MCP: MCPAll},
}

// ProfileOf returns m's row. An unknown or legacy mode string gets the analyze row — read, glob and
// grep only — so it fails closed into the read-only surface (R-GATE-2). Mode keeps the raw value.
// The Tools slice is a copy, so a caller cannot edit the table through it.
func ProfileOf(m ExecutionMode) Profile {
	p := row(m)
	p.Tools = append([]Tool(nil), p.Tools...)
	return p
}

// row is ProfileOf without the copy, for the hot paths inside this package.
func row(m ExecutionMode) Profile {
	if p, ok := profiles[m]; ok {
		return p
	}
	p := profiles[ModeAnalyze]
	p.Mode = m
	return p
}

// Offers reports whether the profile offers tool t.
func (p Profile) Offers(t Tool) bool {
	for _, have := range p.Tools {
		if have == t {
			return true
		}
	}
	return false
}

// OffersMCP reports whether the profile offers an MCP tool whose annotations say read-only
// (readOnlyHint) or not. An unknown access offers nothing.
func (p Profile) OffersMCP(readOnlyHint bool) bool {
	switch p.MCP {
	case MCPAll:
		return true
	case MCPReadOnly:
		return readOnlyHint
	}
	return false
}

// ToolNames returns the offered tools as plain strings, in table order, for building tool definitions.
func (p Profile) ToolNames() []string {
	names := make([]string, len(p.Tools))
	for i, t := range p.Tools {
		names[i] = string(t)
	}
	return names
}
