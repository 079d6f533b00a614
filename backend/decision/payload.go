package decision

import (
	"agentdesk/backend/display"
	"agentdesk/backend/hunk"
)

// The payloads below are what the composer shows for each kind; agent writes them, and every
// reader reads them through this package's decoders (decode.go).

// ApprovalPayload is what the approval composer shows: the full command or parameters (the
// UI truncates head and tail), and why the gate asked.
type ApprovalPayload struct {
	Tool      string `json:"tool"`
	Kind      string `json:"kind"`
	Summary   string `json:"summary"`
	Path      string `json:"path,omitempty"`
	Command   string `json:"command,omitempty"`
	Code      string `json:"code,omitempty"`
	ReasonKey string `json:"reasonKey,omitempty"`
	// ReasonArgs fills ReasonKey's template (the protected path, say).
	ReasonArgs map[string]any `json:"reasonArgs,omitempty"`
	// Scopes are what "allow for this session" and "always allow" would save, shown before the
	// person confirms: always the exact call, and a program + subcommand prefix where one is
	// safe. Empty for an escalation or a protected path, which only "allow once" can answer.
	Scopes []ScopeOption `json:"scopes,omitempty"`
	// Escalation is set when the command asks to leave the sandbox (network, unsandboxed).
	Escalation string `json:"escalation,omitempty"`
	// Agent names the external agent asking ("opencode"); empty for AgentDesk's own tools.
	Agent string `json:"agent,omitempty"`
	// Diff is the change an external agent's call makes, as a unified diff.
	Diff string `json:"diff,omitempty"`
	// Change is what a write or an edit would do to the file, for the card's diff.
	Change *display.Change `json:"change,omitempty"`
	// Server names the MCP server of an MCP tool.
	Server string `json:"server,omitempty"`
	// ToolChanged is set when the MCP tool's definition changed since the person approved it:
	// Diff is then the approved definition against the new one, and allowing the call approves
	// the change (the tool is pinned anew) and runs it, once.
	ToolChanged bool `json:"toolChanged,omitempty"`
	// Review is set when the change is staged for review before apply: the card takes a
	// verdict per hunk (agent/staged.go).
	Review *StagedReview `json:"review,omitempty"`
}

// ScopeOption is one scope the approval card offers for saving.
type ScopeOption struct {
	ID      string `json:"id"` // ScopeExact or ScopePrefix
	Command string `json:"command,omitempty"`
	Path    string `json:"path,omitempty"`
	// MCP is the MCP tool saved, as rules spell it: mcp:server/tool.
	MCP string `json:"mcp,omitempty"`
}

// QuestionPayload is an ask_user question.
type QuestionPayload struct {
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
	Multiple bool     `json:"multiple,omitempty"`
}

// PlanPayload is a plan to review; its title is the plan's first heading.
type PlanPayload struct {
	Plan  string `json:"plan"`
	Title string `json:"title"`
}

// StagedReview is what an approval of a staged change adds: the change's hunks, as the
// person accepts or rejects them (HunkVerdict), and where it is kept.
type StagedReview struct {
	StagedID int64       `json:"stagedId"`
	Hunks    []hunk.Hunk `json:"hunks"`
}
