package app

import (
	"agentdesk/backend/decision"
	"agentdesk/backend/store"
)

// Decisions is the facade of the one decision registry.
type Decisions struct{ s *Services }

// Pending lists a session's pending decisions, head of the FIFO first.
func (f *Decisions) Pending(req SessionRef) ([]decision.Decision, error) {
	return orEmpty(f.s.Decisions.Pending(req.ID)), nil
}

// ResolveRequest answers one decision. Approvals take choice (allow_once, allow_session,
// allow_always, reject), reason, and scope (exact or prefix: what the last two save); plan reviews choice (approve, keep_planning) and feedback;
// questions selected and text; elicitations action (accept, decline) and content, the form.
type ResolveRequest struct {
	ID       string         `json:"id"`
	Choice   string         `json:"choice,omitempty"`
	Reason   string         `json:"reason,omitempty"`
	Scope    string         `json:"scope,omitempty"`
	Selected []string       `json:"selected,omitempty"`
	Text     string         `json:"text,omitempty"`
	Feedback string         `json:"feedback,omitempty"`
	Action   string         `json:"action,omitempty"`
	Content  map[string]any `json:"content,omitempty"`
	// Hunks are per-hunk verdicts on a write or an edit staged for review (review before apply).
	Hunks []decision.HunkVerdict `json:"hunks,omitempty"`
}

// ResolveResult is false when someone else answered first.
type ResolveResult struct {
	Won bool `json:"won"`
}

// Resolve answers a decision; the first answer from any window or client wins.
func (f *Decisions) Resolve(req ResolveRequest) (ResolveResult, error) {
	kind, ok := f.kindOf(req.ID)
	if !ok {
		return ResolveResult{}, nil
	}
	var res decision.Resolution
	switch kind {
	case decision.KindApproval:
		res = decision.ApprovalReviewed(decision.Choice(req.Choice), req.Reason, req.Scope, req.Hunks)
	case decision.KindPlanReview:
		res = decision.Plan(decision.PlanChoice(req.Choice), req.Feedback)
	case decision.KindElicitation:
		res = decision.Elicitation(decision.ElicitationAction(req.Action), req.Content)
	case decision.KindSampling:
		res = decision.Sampling(decision.SamplingChoice(req.Choice), req.Reason)
	case decision.KindContinue:
		res = decision.Continue(decision.ContinueChoice(req.Choice))
	default:
		res = decision.Answer(req.Selected, req.Text)
	}
	won, err := f.s.Decisions.Resolve(req.ID, res)
	if err != nil {
		return ResolveResult{}, f.s.fail(err)
	}
	return ResolveResult{Won: won}, nil
}

// kindOf finds a pending decision's kind; an answered one is no longer pending.
func (f *Decisions) kindOf(id string) (decision.Kind, bool) {
	row, err := f.s.Store.Decision(id)
	if err != nil || row.Status != store.DecisionPending {
		return "", false
	}
	return decision.Kind(row.Kind), true
}
