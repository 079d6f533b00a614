package policy

import (
	"maps"
	"slices"

	"agentdesk/backend/errs"
)

// PermissionMode is how much the agent may do without asking (R-GATE-3).
type PermissionMode string

const (
	Ask  PermissionMode = "ask"
	Auto PermissionMode = "auto"
	Full PermissionMode = "full"
)

// PermissionModes lists the modes in picker order.
var PermissionModes = []PermissionMode{Ask, Auto, Full}

// DefaultPermission is the default of a fresh data folder.
const DefaultPermission = Ask

// Valid reports whether p is canonical.
func (p PermissionMode) Valid() bool { return p == Ask || p == Auto || p == Full }

// EditsInsideRun reports whether edits and writes inside the workspace run without asking.
func (p PermissionMode) EditsInsideRun() bool { return p == Auto || p == Full }

// ReadOnlyShellRuns reports whether allowlisted read-only shell commands run without asking.
func (p PermissionMode) ReadOnlyShellRuns() bool { return p == Auto || p == Full }

// AnyShellRuns reports whether every shell command runs without asking.
func (p PermissionMode) AnyShellRuns() bool { return p == Full }

// MCPRuns reports whether MCP tools run without asking, where the mode offers them all.
func (p PermissionMode) MCPRuns() bool { return p == Full }

// OutsideRuns reports whether calls on paths outside the workspace run without asking.
func (p PermissionMode) OutsideRuns() bool { return p == Full }

// NeedsConfirmation reports whether switching to p needs the person's explicit confirmation.
func (p PermissionMode) NeedsConfirmation() bool { return p == Full }

// LabelKey is the locale key of the picker label.
func (p PermissionMode) LabelKey() string {
	if !p.Valid() {
		return "permission.label.unknown"
	}
	return "permission.label." + string(p)
}

// ParsePermission parses live input strictly; retired spellings are rejected (R-DATA-3).
func ParsePermission(s string) (PermissionMode, error) {
	p := PermissionMode(s)
	if !p.Valid() {
		return "", errs.Invalid("permission_mode", s, []string{string(Ask), string(Auto), string(Full)})
	}
	return p, nil
}

// retiredPermission maps retired stored spellings to what they mean now.
var retiredPermission = map[string]PermissionMode{
	"execute":            Ask,
	"default":            Ask,
	"acceptEdits":        Auto,
	"accept-edits":       Auto,
	"accept_edits":       Auto,
	"bypass":             Full,
	"bypassPermissions":  Full,
	"bypass_permissions": Full,
}

// DecodePermission reads a stored permission mode. Retired spellings fold; anything else reads
// as ask with ok false, so the caller can report it. It never widens.
func DecodePermission(raw string) (p PermissionMode, ok bool) {
	if PermissionMode(raw).Valid() {
		return PermissionMode(raw), true
	}
	if p, retired := retiredPermission[raw]; retired {
		return p, true
	}
	return Ask, false
}

// RetiredPermission tells boot maintenance whether raw is an unambiguous retired spelling and
// what to write instead. Canonical and unknown values answer false and are left as stored.
func RetiredPermission(raw string) (PermissionMode, bool) {
	p, ok := retiredPermission[raw]
	return p, ok
}

// RetiredPermissions lists every retired stored spelling, sorted: boot maintenance looks up
// just the rows that hold one.
func RetiredPermissions() []string {
	return slices.Sorted(maps.Keys(retiredPermission))
}
