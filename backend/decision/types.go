// Package decision is the one registry of pending questions, approvals and plan reviews
// (R-DEC-3 to R-DEC-6). A request blocks on its own channel or its context; every way a decision
// ends goes through one function that removes the pending entry under the lock, so the first
// resolver wins and every later one is a no-op — the habit of crush's internal/permission.
package decision

import (
	"encoding/json"
	"slices"
	"time"
)

// Event names. Both are must-deliver: each is published exactly once per decision.
const (
	EventAsked    = "decision.asked"
	EventResolved = "decision.resolved"
)

// Kind is what the composer morphs into to take the answer (R-DEC-1).
type Kind string

const (
	KindQuestion   Kind = "question"
	KindApproval   Kind = "approval"
	KindPlanReview Kind = "plan_review"
	// KindElicitation is a form an MCP server asks the person to fill in (elicitation.go).
	KindElicitation Kind = "elicitation"
	// KindSampling is an MCP server asking to use the person's model (sampling.go).
	KindSampling Kind = "sampling"
	// KindContinue asks whether a turn at its step limit goes on (continue.go).
	KindContinue Kind = "continue"
)

// Kinds lists every kind.
var Kinds = []Kind{KindQuestion, KindApproval, KindPlanReview, KindElicitation, KindSampling, KindContinue}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool { return slices.Contains(Kinds, k) }

// Outcome is how a decision ended.
type Outcome string

const (
	Answered    Outcome = "answered"
	Rejected    Outcome = "rejected"
	TimedOut    Outcome = "timed_out"
	Cancelled   Outcome = "cancelled"
	Interrupted Outcome = "interrupted"
)

// Suspended is what a waiter gets when the app quits while its decision waits (Registry.Suspend):
// the decision stays pending for the next start. It is no outcome a decision ends with, so no
// client can send it.
const Suspended Outcome = "suspended"

// Outcomes lists every outcome.
var Outcomes = []Outcome{Answered, Rejected, TimedOut, Cancelled, Interrupted}

// Valid reports whether o is a known outcome.
func (o Outcome) Valid() bool { return slices.Contains(Outcomes, o) }

// ReasonKey is the locale key of the one line the composer shows when a decision ended without
// the person's answer (R-DEC-5); "" for answered and rejected, which speak for themselves.
func (o Outcome) ReasonKey() string {
	switch o {
	case TimedOut, Cancelled, Interrupted:
		return "decision.reason." + string(o)
	}
	return ""
}

// ReasonNonInteractive is the reason key for a decision declined at once because no one can
// answer it (a headless run without a terminal).
const ReasonNonInteractive = "decision.reason.non_interactive"

// Request is what a caller asks. Payload is JSON-able: a question with its options, an
// approval's summary, a plan's Markdown.
type Request struct {
	SessionID string
	TurnID    string
	Kind      Kind
	Payload   any
}

// Decision is a pending request as the registry announces and persists it.
type Decision struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionId"`
	TurnID    string          `json:"turnId"`
	Kind      Kind            `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"createdAt"`
	// Deadline is zero when the decision waits for its answer without a timeout (the default).
	Deadline time.Time `json:"deadline"`
}

// Resolution is how a decision ended. Reason is free text from a person (a rejection's reason),
// passed on verbatim; ReasonKey is a locale key for endings no person wrote.
type Resolution struct {
	Outcome   Outcome         `json:"outcome"`
	Answer    json.RawMessage `json:"answer"`
	Reason    string          `json:"reason"`
	ReasonKey string          `json:"reasonKey,omitempty"`
}

// Resolved is the data of decision.resolved.
type Resolved struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionId"`
	Kind      Kind            `json:"kind"`
	Outcome   Outcome         `json:"outcome"`
	Answer    json.RawMessage `json:"answer"`
	Reason    string          `json:"reason"`
	ReasonKey string          `json:"reasonKey,omitempty"`
}

func resolvedEvent(d Decision, res Resolution) Resolved {
	return Resolved{ID: d.ID, SessionID: d.SessionID, Kind: d.Kind, Outcome: res.Outcome,
		Answer: res.Answer, Reason: res.Reason, ReasonKey: res.ReasonKey}
}
