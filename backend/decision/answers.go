package decision

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"agentdesk/backend/errs"
)

// Choice is a button of the approval composer (R-DEC-4).
type Choice string

const (
	AllowOnce    Choice = "allow_once"
	AllowSession Choice = "allow_session" // becomes a session grant
	AllowAlways  Choice = "allow_always"  // becomes a rule listed in Settings
	Reject       Choice = "reject"
)

var choices = []Choice{AllowOnce, AllowSession, AllowAlways, Reject}

// ApprovalAnswer is the Answer of an approval.
type ApprovalAnswer struct {
	Choice Choice `json:"choice"`
	Reason string `json:"reason,omitempty"`
	// Scope is what allow_session and allow_always save: ScopeExact (the default, the call
	// itself) or ScopePrefix (the program and subcommand the approval card offered).
	Scope string `json:"scope,omitempty"`
	// Hunks are the person's verdicts on the hunks of a write or an edit staged for review
	// (review before apply); a hunk without a verdict is accepted.
	Hunks []HunkVerdict `json:"hunks,omitempty"`
}

// HunkVerdict accepts or rejects one hunk (by index) of a staged change; a rejection's reason
// reaches the model with the call's result.
type HunkVerdict struct {
	Hunk   int    `json:"hunk"`
	Accept bool   `json:"accept"`
	Reason string `json:"reason,omitempty"`
}

// ApprovalReviewed is ApprovalScoped with the person's verdicts on a staged change's hunks.
func ApprovalReviewed(c Choice, reason, scope string, hunks []HunkVerdict) Resolution {
	res := ApprovalScoped(c, reason, scope)
	if c == Reject || len(hunks) == 0 {
		return res
	}
	a := ApprovalAnswer{Choice: c, Hunks: hunks}
	if scope != "" {
		a.Scope = scope
	}
	res.Answer = mustJSON(a)
	return res
}

// Scopes an approval may save; anything else is refused.
const (
	ScopeExact  = "exact"
	ScopePrefix = "prefix"
)

// PlanChoice is a button of the plan review composer (R-PLAN-2).
type PlanChoice string

const (
	ApprovePlan  PlanChoice = "approve"
	KeepPlanning PlanChoice = "keep_planning"
)

var planChoices = []PlanChoice{ApprovePlan, KeepPlanning}

// PlanAnswer is the Answer of a plan review; Feedback goes to the model verbatim.
type PlanAnswer struct {
	Choice   PlanChoice `json:"choice"`
	Feedback string     `json:"feedback,omitempty"`
}

// QuestionAnswer is the Answer of a question: the options picked and any free text.
type QuestionAnswer struct {
	Selected []string `json:"selected,omitempty"`
	Text     string   `json:"text,omitempty"`
}

// Approval builds the resolution of an approval. Reject is a rejection, whose reason becomes
// the tool's error text; every other choice is an answer.
func Approval(c Choice, reason string) Resolution {
	a := ApprovalAnswer{Choice: c}
	if c != Reject {
		return Resolution{Outcome: Answered, Answer: mustJSON(a)}
	}
	a.Reason = reason
	return Resolution{Outcome: Rejected, Answer: mustJSON(a), Reason: reason}
}

// ApprovalScoped is Approval with the scope the person chose for what is saved.
func ApprovalScoped(c Choice, reason, scope string) Resolution {
	res := Approval(c, reason)
	if c != Reject && scope != "" {
		res.Answer = mustJSON(ApprovalAnswer{Choice: c, Scope: scope})
	}
	return res
}

// Plan builds the resolution of a plan review.
func Plan(c PlanChoice, feedback string) Resolution {
	return Resolution{Outcome: Answered, Answer: mustJSON(PlanAnswer{Choice: c, Feedback: feedback})}
}

// Answer builds the resolution of a question.
func Answer(selected []string, text string) Resolution {
	return Resolution{Outcome: Answered, Answer: mustJSON(QuestionAnswer{Selected: selected, Text: text})}
}

// ParseApproval reads an approval's answer; an unknown choice is INVALID_VALUE.
func ParseApproval(raw json.RawMessage) (ApprovalAnswer, error) {
	var a ApprovalAnswer
	if err := decodeStrict(raw, &a, "choice", "reason", "scope", "hunks"); err != nil {
		return a, err
	}
	seen := map[int]bool{}
	for _, h := range a.Hunks {
		if h.Hunk < 0 || seen[h.Hunk] {
			return a, errs.Invalid("hunk", strconv.Itoa(h.Hunk), []string{"each hunk once, from 0"})
		}
		seen[h.Hunk] = true
	}
	if !slices.Contains(choices, a.Choice) {
		return a, errs.Invalid("choice", string(a.Choice), names(choices))
	}
	if a.Scope != "" && a.Scope != ScopeExact && a.Scope != ScopePrefix {
		return a, errs.Invalid("scope", a.Scope, []string{ScopeExact, ScopePrefix})
	}
	return a, nil
}

// ParsePlan reads a plan review's answer; an unknown choice is INVALID_VALUE.
func ParsePlan(raw json.RawMessage) (PlanAnswer, error) {
	var a PlanAnswer
	if err := decodeStrict(raw, &a, "choice", "feedback"); err != nil {
		return a, err
	}
	if !slices.Contains(planChoices, a.Choice) {
		return a, errs.Invalid("choice", string(a.Choice), names(planChoices))
	}
	return a, nil
}

// ParseQuestion reads a question's answer.
func ParseQuestion(raw json.RawMessage) (QuestionAnswer, error) {
	var a QuestionAnswer
	return a, decodeStrict(raw, &a, "selected", "text")
}

// normalize checks a resolution against its decision's kind before it may end the decision, so
// a malformed answer leaves the decision pending instead of ending it with garbage. An approval
// answered "reject" and an approval rejected outright read the same afterwards.
func normalize(k Kind, res Resolution) (Resolution, error) {
	if !res.Outcome.Valid() {
		return res, errs.Invalid("outcome", string(res.Outcome), names(Outcomes))
	}
	if res.ReasonKey == "" {
		res.ReasonKey = res.Outcome.ReasonKey()
	}
	switch {
	case k == KindApproval && (res.Outcome == Answered || res.Outcome == Rejected):
		return normalizeApproval(res)
	case res.Outcome == Answered:
		return res, checkAnswer(k, res.Answer)
	}
	return res, nil
}

func normalizeApproval(res Resolution) (Resolution, error) {
	a := ApprovalAnswer{Choice: Reject}
	if res.Outcome == Answered || len(res.Answer) > 0 {
		var err error
		if a, err = ParseApproval(res.Answer); err != nil {
			return res, err
		}
	}
	if res.Outcome == Rejected && a.Choice != Reject {
		return res, errs.Invalid("choice", string(a.Choice), []string{string(Reject)})
	}
	if a.Choice != Reject {
		return res, nil
	}
	if res.Reason == "" {
		res.Reason = a.Reason
	}
	out := Approval(Reject, res.Reason)
	out.ReasonKey = res.ReasonKey
	return out, nil
}

func checkAnswer(k Kind, raw json.RawMessage) error {
	var err error
	switch k {
	case KindPlanReview:
		_, err = ParsePlan(raw)
	case KindQuestion:
		_, err = ParseQuestion(raw)
	case KindElicitation:
		_, err = ParseElicitation(raw)
	case KindSampling:
		_, err = ParseSampling(raw)
	case KindContinue:
		_, err = ParseContinue(raw)
	}
	return err
}

// decodeStrict refuses unknown fields and a missing answer, so a client speaking another shape
// is told which fields it may send rather than having its answer read as empty.
func decodeStrict(raw json.RawMessage, v any, fields ...string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errs.New(errs.InvalidInput, "Field", "answer")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := errs.Invalid("answer", string(raw), fields)
		e.Err = err
		return e
	}
	return nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with the answer structs above, which always marshal
	}
	return b
}

func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
