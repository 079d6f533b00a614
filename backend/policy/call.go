package policy

import "agentdesk/backend/mode"

// Kind is the kind of a tool call, which is what the gate decides on.
type Kind string

const (
	KindRead     Kind = "read" // read, glob and grep
	KindWrite    Kind = "write"
	KindEdit     Kind = "edit"
	KindBash     Kind = "bash"
	KindAsk      Kind = "ask"       // ask_user
	KindPlanExit Kind = "plan-exit" // exit_plan_mode
	// KindFetch reaches the network (an external ACP agent's "fetch" tool). It belongs to the
	// profiles that may run a shell, and, like a shell command stepping out of the sandbox, it
	// asks in every permission mode: no grant or allow rule answers it in advance.
	KindFetch Kind = "fetch"
	// KindOther is a call whose kind the gate cannot tell (an external agent's tool of an unknown
	// or unclassifiable ACP kind). It fails closed: it asks in every mode but Chat, and no grant
	// or allow rule answers it.
	KindOther Kind = "other"
	KindMCP   Kind = "mcp" // a tool of an MCP server (mcp.go)
)

// Kinds lists every call kind.
var Kinds = []Kind{KindRead, KindWrite, KindEdit, KindBash, KindAsk, KindPlanExit, KindFetch, KindOther, KindMCP}

// AsksAlways reports whether calls of kind k ask whenever no deny decides them: grants and
// always-allow rules never answer them, and an approval of one is for that call only.
func (k Kind) AsksAlways() bool { return k == KindFetch || k == KindOther }

// Call is one tool call as the gate sees it. Path is set for read, write and edit — for glob and
// grep it is the directory searched, "." for the whole workspace; a call without a path cannot
// be resolved and asks. Command is set for bash.
type Call struct {
	Kind    Kind
	Path    string
	Command string
	// Escalation is set on a bash call that asks to step out of the kernel sandbox. It is a
	// decision no grant or always-allow rule can answer in advance: it always asks.
	Escalation Escalation
	// MCP names the server and tool of an MCP call.
	MCP MCPCall
}

// Escalation is a bash call's request to step out of the sandbox.
type Escalation string

const (
	NoEscalation        Escalation = ""
	EscalateNetwork     Escalation = "network"     // reach the network
	EscalateUnsandboxed Escalation = "unsandboxed" // run outside the kernel sandbox altogether
	EscalateGit         Escalation = "git"         // change the workspace's .git (gitwrite.go)
)

// Escalations lists the valid escalations.
var Escalations = []Escalation{EscalateNetwork, EscalateUnsandboxed, EscalateGit}

// HasPath reports whether calls of kind k name a path the gate must resolve.
func (k Kind) HasPath() bool { return k == KindRead || k == KindWrite || k == KindEdit }

// Mutates reports whether calls of kind k can change something. An MCP tool can do anything its
// server can: its annotations are hints, so it counts as mutating.
func (k Kind) Mutates() bool { return k == KindWrite || k == KindEdit || k == KindBash || k == KindMCP }

// KindOfTool maps a tool name to its call kind; ok is false for a tool the gate does not know.
func KindOfTool(t mode.Tool) (k Kind, ok bool) {
	for kind, tool := range kindTools {
		if tool == t {
			return kind, true
		}
	}
	switch t {
	case mode.ToolGlob, mode.ToolGrep:
		return KindRead, true
	}
	return "", false
}

// profileTool is the tool whose row in the profile table decides calls of kind k in the hard
// layer: fetch reaches beyond the workspace like the shell, so it goes where bash goes.
func profileTool(k Kind) (mode.Tool, bool) {
	if k == KindFetch {
		return mode.ToolBash, true
	}
	t, ok := kindTools[k]
	return t, ok
}

// kindTools is the tool in the profile table that stands for each kind in the hard layer.
var kindTools = map[Kind]mode.Tool{
	KindRead:     mode.ToolRead,
	KindWrite:    mode.ToolWrite,
	KindEdit:     mode.ToolEdit,
	KindBash:     mode.ToolBash,
	KindAsk:      mode.ToolAskUser,
	KindPlanExit: mode.ToolExitPlanMode,
}
