package tool

import (
	"context"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

const aPlan = "# Add caching\n\n1. Wrap the store.\n2. Test it.\n"

func reviewWith(r PlanReview, got *string) Env {
	return Env{ReviewPlan: func(_ context.Context, plan string) (PlanReview, error) {
		*got = plan
		return r, nil
	}}
}

func TestExitPlanModeApproved(t *testing.T) {
	var plan string
	res := mustRun(t, mode.ToolExitPlanMode, reviewWith(PlanReview{Approved: true}, &plan), jsonInput(t, map[string]string{"plan": aPlan}))
	if plan != aPlan {
		t.Fatalf("reviewer got %q", plan)
	}
	if res.IsError || !strings.Contains(res.Output, "approved") || !strings.Contains(res.Output, "Plan mode is over") {
		t.Fatalf("got %+v", res)
	}
}

func TestExitPlanModeKeepPlanningReturnsTheFeedbackVerbatim(t *testing.T) {
	feedback := "  Don't touch the DB layer.\n\n- use an LRU\n- 中文也要原样返回 \t\n"
	var plan string
	res := mustRun(t, mode.ToolExitPlanMode, reviewWith(PlanReview{Feedback: feedback}, &plan), jsonInput(t, map[string]string{"plan": aPlan}))
	if !res.IsError || res.Output != feedback {
		t.Fatalf("got %+v, want the feedback exactly", res)
	}
}

func TestExitPlanModeDeclinedKeepsPlanning(t *testing.T) {
	var plan string
	res := mustRun(t, mode.ToolExitPlanMode, reviewWith(PlanReview{Declined: true, Reason: "timed out"}, &plan), `{"plan":"# P"}`)
	if !res.IsError || res.Output != "The plan was not reviewed, so plan mode stays on.\nReason: timed out" {
		t.Fatalf("got %+v", res)
	}
	res = mustRun(t, mode.ToolExitPlanMode, Env{}, `{"plan":"# P"}`)
	if !res.IsError || !strings.Contains(res.Output, "plan mode stays on") {
		t.Fatalf("no reviewer: %+v", res)
	}
}
