package agent

import (
	"strings"

	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// displayOf says an error to the person: its kind's message with its arguments, which the UI
// renders in the person's language, while the model reads errorText's English. A rejection
// names the person's own reason, when they gave one.
func displayOf(err error) *display.Message {
	e := errs.As(err)
	if e.Kind == policy.RejectedByUser {
		if reason, _ := e.Args["Reason"].(string); strings.TrimSpace(reason) != "" {
			return display.Say("tool.result.rejectedWithReason", "Reason", reason)
		}
		return display.Say("tool.result.rejected")
	}
	return &display.Message{Key: "error." + string(e.Kind), Args: e.Args}
}

// declineDisplay says why a decision ended without the person's yes: the registry's reason key
// when no person wrote the ending (a headless run with no one to answer), else the gate error.
func declineDisplay(res decision.Resolution, gerr error) *display.Message {
	if res.ReasonKey != "" && res.Outcome == decision.Rejected {
		return display.Say(res.ReasonKey)
	}
	return displayOf(gerr)
}

// notRun is said of a call the turn stopped before it ran.
var notRun = "tool.result.notRun"
