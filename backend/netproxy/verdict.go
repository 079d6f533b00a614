package netproxy

import "agentdesk/backend/errs"

// Verdict is a policy's answer about one host and port.
type Verdict struct {
	Allow bool
	// Refusal says why, when Allow is false. Nil means "not approved" (NotApproved), which tells
	// the model how to ask; a policy may give its own, e.g. that the person refused the host.
	Refusal *errs.Error
}

// Approve is the verdict that lets a connection through.
func Approve() Verdict { return Verdict{Allow: true} }
