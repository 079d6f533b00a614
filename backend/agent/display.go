package agent

import (
	"strings"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// displayOf says an error to the person: its kind's message with its arguments, which the UI
// renders in the person's language, while the model reads errorText's English. A rejection
// names the person's own reason, when they gave one.
func displayOf(err error) *tool.Message {
	e := errs.As(err)
	if e.Kind == policy.RejectedByUser {
		if reason, _ := e.Args["Reason"].(string); strings.TrimSpace(reason) != "" {
			return tool.Say("tool.result.rejectedWithReason", "Reason", reason)
		}
		return tool.Say("tool.result.rejected")
	}
	return &tool.Message{Key: "error." + string(e.Kind), Args: e.Args}
}

// declineDisplay says why a decision ended without the person's yes: the registry's reason key
// when no person wrote the ending (a headless run with no one to answer), else the gate error.
func declineDisplay(res decision.Resolution, gerr error) *tool.Message {
	if res.ReasonKey != "" && res.Outcome == decision.Rejected {
		return tool.Say(res.ReasonKey)
	}
	return displayOf(gerr)
}

// notRun is said of a call the turn stopped before it ran.
var notRun = "tool.result.notRun"
