package decision

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// Codes for decisions that ended because the turn stopped or the app did; like the gate codes
// they are stable and translated as "error." + code.
const (
	CodeCancelled   errs.Kind = "DECISION_CANCELLED"
	CodeInterrupted errs.Kind = "DECISION_INTERRUPTED"
)

// GateError maps a resolution to the error the tool call returns, or nil when the decision
// was answered. Everything else declines: a rejection is REJECTED_BY_USER carrying the
// person's reason verbatim as the "Reason" argument, a timeout is DECISION_TIMED_OUT, and an
// outcome this build does not know declines too rather than letting the call run.
func GateError(res Resolution) error {
	switch res.Outcome {
	case Answered:
		return nil
	case Rejected:
		if res.Reason != "" {
			return errs.New(policy.RejectedByUser, "Reason", res.Reason)
		}
		return errs.New(policy.RejectedByUser)
	case TimedOut:
		return errs.New(policy.DecisionTimedOut)
	case Cancelled:
		return errs.New(CodeCancelled)
	}
	return errs.New(CodeInterrupted)
}

// ToolErrorText is the error text the model receives for a declined call: the person's reason
// verbatim when they gave one (R-DEC-4), otherwise the code's message from localize (for example
// an i18n bundle bound to a language).
func ToolErrorText(err error, localize func(key string, args map[string]any) string) string {
	e := errs.As(err)
	if reason, ok := e.Args["Reason"].(string); ok && reason != "" && e.Kind == policy.RejectedByUser {
		return reason
	}
	return localize("error."+string(e.Kind), e.Args)
}
