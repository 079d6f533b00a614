package policy

import "agentdesk/backend/errs"

// Gate error codes (R-GATE-2). They are stable strings: the UI translates "error." + code and
// tests assert them. Never rename one.
const (
	ToolDisabledInChat      errs.Kind = "TOOL_DISABLED_IN_CHAT"
	WriteDisabledInReadOnly errs.Kind = "WRITE_DISABLED_IN_READ_ONLY"
	BashDisabledInReadOnly  errs.Kind = "BASH_DISABLED_IN_READ_ONLY"
	PathOutsideWorkspace    errs.Kind = "PATH_OUTSIDE_WORKSPACE"
	ProtectedPath           errs.Kind = "PROTECTED_PATH"
	RejectedByUser          errs.Kind = "REJECTED_BY_USER"
	DecisionTimedOut        errs.Kind = "DECISION_TIMED_OUT"

	// ToolDisabledInMode covers the profile's hard deny for tools that neither write nor run a
	// shell: ask_user outside plan and the mutating modes, exit_plan_mode outside plan.
	ToolDisabledInMode errs.Kind = "TOOL_DISABLED_IN_MODE"
	// DeniedByRule is a deny rule's verdict (layer 2).
	DeniedByRule errs.Kind = "DENIED_BY_RULE"
	// SandboxEscalation names the concern of a bash call that asks to leave the sandbox
	// (network, or no sandbox at all): the error reported when no one can answer.
	SandboxEscalation errs.Kind = "SANDBOX_ESCALATION"
	// NetworkFetch names the concern of a fetch (an external agent reaching the network).
	NetworkFetch errs.Kind = "NETWORK_FETCH"
	// MCPDisabledInReadOnly is the profile's hard deny of an MCP tool whose annotations do not
	// say read-only, in a mode that may not mutate (propose, analyze, plan, unknown).
	MCPDisabledInReadOnly errs.Kind = "MCP_DISABLED_IN_READ_ONLY"
)

// Codes lists every gate code, for tests that check each has a message in every locale.
var Codes = []errs.Kind{
	ToolDisabledInChat, WriteDisabledInReadOnly, BashDisabledInReadOnly, PathOutsideWorkspace,
	ProtectedPath, RejectedByUser, DecisionTimedOut, ToolDisabledInMode, DeniedByRule, SandboxEscalation, NetworkFetch,
	MCPDisabledInReadOnly, SensitivePath,
}
