package policy

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// hardDeny is layer 1: the execution-mode profile's hard deny, which outranks every permission
// mode, full included. It reads the same R-MODE-4 table that chooses the tools offered to the
// model, so the soft and hard layers cannot disagree. An unknown mode gets the read-only row.
func hardDeny(m mode.ExecutionMode, c Call) (errs.Kind, bool) {
	k := c.Kind
	if k == KindMCP {
		return hardDenyMCP(m, c.MCP)
	}
	tool, known := profileTool(k)
	if known && m.Offers(tool) {
		return "", false
	}
	switch {
	case m == mode.ModeChat:
		return ToolDisabledInChat, true
	case k == KindOther:
		// A call of unknown kind may be anything, so no profile can rule it in or out: it asks.
		return "", false
	case k == KindWrite || k == KindEdit:
		return WriteDisabledInReadOnly, true
	case k == KindBash:
		return BashDisabledInReadOnly, true
	}
	return ToolDisabledInMode, true
}
