package decision

import (
	"encoding/json"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// Only an answer lets the call run; every other outcome, known or not, declines with its code.
func TestGateErrorMapsEveryOutcome(t *testing.T) {
	cases := map[Outcome]errs.Kind{
		Rejected:    policy.RejectedByUser,
		TimedOut:    policy.DecisionTimedOut,
		Cancelled:   CodeCancelled,
		Interrupted: CodeInterrupted,
		"unheard":   CodeInterrupted,
	}
	if err := GateError(Resolution{Outcome: Answered}); err != nil {
		t.Fatalf("answered: %v", err)
	}
	for o, want := range cases {
		if got := errs.KindOf(GateError(Resolution{Outcome: o})); got != want {
			t.Errorf("%s -> %s, want %s", o, got, want)
		}
	}
	e := errs.As(GateError(Resolution{Outcome: Rejected, Reason: "not that file"}))
	if e.Args["Reason"] != "not that file" {
		t.Fatalf("reason lost: %v", e)
	}
}

func TestAnswerHelpersRoundTrip(t *testing.T) {
	for _, c := range choices {
		res := Approval(c, "why")
		a, err := ParseApproval(res.Answer)
		if err != nil || a.Choice != c || (res.Outcome == Rejected) != (c == Reject) {
			t.Errorf("%s: %+v %+v %v", c, res, a, err)
		}
		if c != Reject && a.Reason != "" {
			t.Errorf("%s carried a reason", c)
		}
	}
	p, err := ParsePlan(Plan(KeepPlanning, "split step 2").Answer)
	if err != nil || p.Choice != KeepPlanning || p.Feedback != "split step 2" {
		t.Fatalf("plan: %+v %v", p, err)
	}
	q, err := ParseQuestion(Answer([]string{"a", "b"}, "and c").Answer)
	if err != nil || len(q.Selected) != 2 || q.Text != "and c" {
		t.Fatalf("question: %+v %v", q, err)
	}
	if _, err := ParsePlan(json.RawMessage(`{"choice":"ship it"}`)); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("unknown plan choice: %v", err)
	}
	if _, err := ParseQuestion(json.RawMessage(`{"answer":"x"}`)); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("unknown field: %v", err)
	}
}
