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
}

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
	ModePropose:  {Mode: ModePropose, Tools: readTools},
	ModeAnalyze:  {Mode: ModeAnalyze, Tools: readTools},
	ModePlan:     {Mode: ModePlan, Tools: planTools},
	ModeExecute:  {Mode: ModeExecute, Tools: allTools, MayMutate: true},
	ModeDebug:    {Mode: ModeDebug, Tools: allTools, MayMutate: true, DebugPrompt: true},
	ModeVerified: {Mode: ModeVerified, Tools: allTools, MayMutate: true, RequiresVerification: true},
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

// ToolNames returns the offered tools as plain strings, in table order, for building tool definitions.
func (p Profile) ToolNames() []string {
	names := make([]string, len(p.Tools))
	for i, t := range p.Tools {
		names[i] = string(t)
	}
	return names
}
