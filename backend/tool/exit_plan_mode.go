package tool

import (
	"context"
	"encoding/json"
	"strings"

	"agentdesk/backend/display"
	"agentdesk/backend/mode"
)

var exitPlanModeSpec = spec{tool: mode.ToolExitPlanMode, params: []param{
	{name: "plan", typ: "string", title: "Plan", required: true, nonBlank: true,
		description: "The plan in Markdown, starting with a heading that names it."},
}}

const exitPlanModeDescription = `Presents your finished plan to the person for review; this is the only way to leave plan mode.
Call it once the plan is complete: the concrete steps, the files to change and how to verify the result, in Markdown starting with a "# Title" heading.
If the person approves, plan mode ends and you carry out the plan. If they keep planning, the call fails with their feedback: revise the plan accordingly and call this tool again. If the review does not happen, plan mode stays on.`

const planNotReviewed = "The plan was not reviewed, so plan mode stays on."

type exitPlanModeInput struct {
	Plan string `json:"plan"`
}

type exitPlanModeTool struct{ about }

var exitPlanModeSchema = exitPlanModeSpec.schema()

func (exitPlanModeTool) decode(input json.RawMessage) (exitPlanModeInput, error) {
	var in exitPlanModeInput
	err := exitPlanModeSpec.decode(input, &in)
	return in, err
}

func (t exitPlanModeTool) Describe(input json.RawMessage) (Call, error) {
	in, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	return Call{Gate: gateCall(mode.ToolExitPlanMode, "", ""), Summary: in.Plan}, nil
}

// Run only reports the review. Leaving plan mode (the mode.set event) is the agent's job, on
// an approved review, so the mode log stays the one source of the mode (R-PLAN-1).
func (t exitPlanModeTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	if env.ReviewPlan == nil {
		return declined(planNotReviewed, "tool.result.plan.declined", "no one can review plans here",
			display.Say("decision.reason.non_interactive")), nil
	}
	r, err := env.ReviewPlan(ctx, in.Plan)
	if err != nil {
		return Result{}, err
	}
	switch {
	case r.Declined:
		return declined(planNotReviewed, "tool.result.plan.declined", r.Reason, r.Why), nil
	case r.Approved:
		return approved(r.Feedback), nil
	}
	return keepPlanning(r.Feedback), nil
}

func approved(note string) Result {
	text := "The person approved the plan. Plan mode is over: carry out the plan now."
	if strings.TrimSpace(note) == "" {
		return Result{Output: text, Display: display.Say("tool.result.plan.approved"), Answered: true}
	}
	return Result{Output: text + "\n\nTheir note:\n" + note, Display: display.Say("tool.result.plan.approvedNote", "Note", note), Answered: true}
}

// keepPlanning returns the person's feedback verbatim (R-PLAN-2): nothing is added around it,
// so the model reads exactly what they wrote. Only empty feedback gets a stand-in line. To the
// model it is a failed call (the plan was not accepted); to the person it is their own answer.
func keepPlanning(feedback string) Result {
	if strings.TrimSpace(feedback) == "" {
		return Result{Output: "The person chose to keep planning without further comment. Revise the plan and present it again.",
			IsError: true, Display: display.Say("tool.result.plan.keepPlanningSilent"), Answered: true}
	}
	return Result{Output: feedback, IsError: true, Display: display.Say("tool.result.plan.keepPlanning", "Feedback", feedback), Answered: true}
}
