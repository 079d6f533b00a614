package agent

import (
	"context"
	"strings"

	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

func (t *turn) ask(kind decision.Kind, payload any) (decision.Resolution, error) {
	return t.askIn(t.ctx, kind, payload)
}

// askIn asks within ctx, which ends no later than the turn (an external agent's request).
// A turn taken up after a restart asks its waiting decision again, by its id (resume.go). The
// app quitting suspends the wait: the turn then stops without ending.
func (t *turn) askIn(ctx context.Context, kind decision.Kind, payload any) (decision.Resolution, error) {
	res, again, err := t.askResumed(ctx, kind)
	if !again {
		_, res, err = t.rt.opts.Decisions.Ask(ctx, decision.Request{SessionID: t.sessionID, TurnID: t.active.turnID, Kind: kind, Payload: payload})
	}
	if err == nil && res.Outcome == decision.Suspended {
		return res, errSuspended
	}
	if err == nil && t.ctx.Err() != nil {
		err = t.ctx.Err()
	}
	return res, err
}

// approve turns the gate's ask into an approval decision. Allow for this session becomes a
// grant, always allow a rule listed in Settings; anything else declines with its code.
func (t *turn) approve(g *gated) error {
	p := approvalPayload(g)
	p.Change, p.Diff = t.preview(g), t.scriptDiff(g)
	t.stage(g, &p)
	if g.toolChange != "" {
		p.ToolChanged, p.Diff, p.Scopes = true, g.toolChange, nil
	}
	res, err := t.ask(decision.KindApproval, p)
	if err != nil {
		return err
	}
	if err := decision.GateError(res); err != nil {
		g.approved, g.why = string(res.Outcome), declineDisplay(res, err)
		if ch, ok := g.tool.(tool.ChangedServed); ok && g.toolChange != "" && (res.Outcome != decision.Rejected || res.Reason == "") {
			// The model learns why the tool did not run: its change was not approved.
			return ch.ChangeRefusal()
		}
		return err
	}
	a, err := decision.ParseApproval(res.Answer)
	if err != nil {
		return err
	}
	g.approved = string(a.Choice)
	if ch, ok := g.tool.(tool.ChangedServed); ok && g.toolChange != "" {
		// Allowing a changed tool's call approves the change (pins it anew) and runs this call;
		// nothing else is saved.
		g.approved = string(decision.AllowOnce)
		return ch.ApproveChange()
	}
	if g.staged != nil {
		if err := g.staged.takeVerdicts(a.Hunks); err != nil {
			g.approved, g.why = string(decision.Reject), displayOf(err)
			return err
		}
	}
	if g.desc.Gate.Escalation == policy.EscalateGit && a.Choice != decision.AllowOnce {
		// Changing .git may be allowed for the session, never for good.
		g.escalated, g.approved = true, string(decision.AllowSession)
		return t.rt.opts.Store.AddGitWriteGrant(t.sessionID)
	}
	if g.desc.Gate.Escalation != policy.NoEscalation {
		// A step out of the sandbox is never saved: whatever was pressed, it is this call only.
		g.escalated, g.approved = true, string(decision.AllowOnce)
		return nil
	}
	if onceOnly(g.verdict) {
		// A protected path asks before any grant or rule is read: a saved answer would never apply.
		g.approved = string(decision.AllowOnce)
		return nil
	}
	if a.Choice != decision.AllowSession && a.Choice != decision.AllowAlways {
		return nil
	}
	if err := t.keepScriptTexts(g); err != nil {
		return err
	}
	if a.Choice == decision.AllowSession {
		return t.rt.opts.Store.AddGrant(t.sessionID, grantFor(g, a.Scope))
	}
	_, err = t.rt.opts.Store.AddRule(ruleFor(g, a.Scope), "approval:"+t.sessionID)
	return t.ruleAdded(err)
}

// EventRuleAdded says an "Always allow" answer added a rule. It comes after the answer's
// decision.resolved, once the rule is stored, so a Settings page that reloads on it lists it.
const EventRuleAdded = "rule.added"

// RuleAdded is the payload of rule.added: the session whose answer it was.
type RuleAdded struct {
	SessionID string `json:"sessionId"`
}

// ruleAdded announces a rule once it is stored.
func (t *turn) ruleAdded(err error) error {
	if err == nil {
		t.rt.opts.Publish(EventRuleAdded, RuleAdded{SessionID: t.sessionID})
	}
	return err
}

func approvalPayload(g *gated) decision.ApprovalPayload {
	p := decision.ApprovalPayload{Tool: g.call.Name, Kind: string(g.desc.Gate.Kind), Summary: g.desc.Summary,
		Path: g.resolved.Target.Path, Command: g.desc.Gate.Command, Code: string(g.verdict.Code),
		ReasonKey: g.verdict.ReasonKey, ReasonArgs: g.verdict.ReasonArgs, Escalation: string(g.desc.Gate.Escalation),
		Server: serverOf(g.tool)}
	if p.Escalation != "" || onceOnly(g.verdict) {
		return p
	}
	exact := ruleFor(g, decision.ScopeExact)
	p.Scopes = []decision.ScopeOption{{ID: decision.ScopeExact, Command: exact.Command, Path: exact.Path, MCP: mcpScope(exact)}}
	if prefix := policy.SuggestPrefix(g.resolved.Shell); prefix != "" && g.desc.Gate.Kind == policy.KindBash {
		p.Scopes = append(p.Scopes, decision.ScopeOption{ID: decision.ScopePrefix, Command: prefix})
	}
	return p
}

// preview says what the call would change, reading the file through the target the gate
// resolved, as the tool itself will; nil for other tools or when there is nothing to show.
func (t *turn) preview(g *gated) *display.Change {
	pv, ok := g.tool.(tool.Previewer)
	if !ok {
		return nil
	}
	target := g.resolved.Target
	c, err := pv.Preview(tool.Env{Workspace: t.workspace, Target: &target}, g.call.Input)
	if err != nil {
		return nil
	}
	return c
}

// grantFor allows this call again, in the scope the person chose from those the card showed.
func grantFor(g *gated, scope string) policy.Grant {
	r := ruleFor(g, scope)
	return policy.Grant{Kind: r.Kind, Path: r.Path, Command: r.Command, MCP: r.MCP, Scope: r.Scope, Scripts: r.Scripts}
}

// ruleFor is exactly this call — the same command text (with the content of the files it runs),
// or the same file — unless the person chose the prefix the card offered. A prefix that was not
// offered falls back to exact.
func ruleFor(g *gated, scope string) policy.Rule {
	r := policy.Rule{Effect: policy.Allow, Kind: g.desc.Gate.Kind, Scope: policy.ScopeExact}
	switch {
	case g.desc.Gate.Kind == policy.KindMCP:
		r.MCP = g.desc.Gate.MCP.Name() // the one tool of the one server, whatever the arguments
	case g.desc.Gate.Kind == policy.KindBash:
		// The approval is of the scripts as the person saw them: the rule holds while they are.
		r.Command, r.Scripts = strings.TrimSpace(g.desc.Gate.Command), g.resolved.Scripts
		if prefix := policy.SuggestPrefix(g.resolved.Shell); scope == decision.ScopePrefix && prefix != "" {
			r.Command, r.Scope = prefix, policy.ScopePrefix
		}
	case g.resolved.Target.Inside:
		r.Path = g.resolved.Target.Rel
	default:
		r.Path = g.resolved.Target.Path
	}
	return r
}

// askQuestionFor is ask_user's way to the person; how the question ended is kept on the call,
// so its card says "answered" or "timed out" rather than the gate's "allowed".
func (t *turn) askQuestionFor(g *gated) func(context.Context, tool.Question) (tool.Answer, error) {
	return func(ctx context.Context, q tool.Question) (tool.Answer, error) {
		a, outcome, err := t.askQuestion(q)
		g.approved = outcome
		return a, err
	}
}

func (t *turn) askQuestion(q tool.Question) (tool.Answer, string, error) {
	res, err := t.ask(decision.KindQuestion, decision.QuestionPayload{Question: q.Text, Options: q.Options, Multiple: q.Multiple})
	if err != nil {
		return tool.Answer{}, "", err
	}
	if gerr := decision.GateError(res); gerr != nil {
		return tool.Answer{Declined: true, Reason: t.rt.errorText(gerr), Why: declineDisplay(res, gerr)}, string(res.Outcome), nil
	}
	a, err := decision.ParseQuestion(res.Answer)
	if err != nil {
		return tool.Answer{}, "", err
	}
	values := append([]string(nil), a.Selected...)
	if strings.TrimSpace(a.Text) != "" {
		values = append(values, a.Text)
	}
	return tool.Answer{Values: values}, string(decision.Answered), nil
}

// reviewPlanFor is exit_plan_mode's way to the person; the review's outcome (approve,
// keep_planning, timed_out, …) is kept on the call for its card.
func (t *turn) reviewPlanFor(g *gated) func(context.Context, string) (tool.PlanReview, error) {
	return func(ctx context.Context, plan string) (tool.PlanReview, error) {
		r, outcome, err := t.reviewPlan(plan)
		g.approved = outcome
		return r, err
	}
}

func (t *turn) reviewPlan(plan string) (tool.PlanReview, string, error) {
	res, err := t.ask(decision.KindPlanReview, decision.PlanPayload{Plan: plan, Title: planTitle(plan)})
	if err != nil {
		return tool.PlanReview{}, "", err
	}
	if gerr := decision.GateError(res); gerr != nil {
		return tool.PlanReview{Declined: true, Reason: t.rt.errorText(gerr), Why: declineDisplay(res, gerr)}, string(res.Outcome), nil
	}
	a, err := decision.ParsePlan(res.Answer)
	if err != nil {
		return tool.PlanReview{}, "", err
	}
	return tool.PlanReview{Approved: a.Choice == decision.ApprovePlan, Feedback: a.Feedback}, string(a.Choice), nil
}

// planTitle is the plan's first Markdown heading.
func planTitle(plan string) string {
	for _, line := range strings.Split(plan, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "#") {
			return strings.TrimSpace(strings.TrimLeft(l, "#"))
		}
	}
	return ""
}

// leavePlan appends a mode.set back to the last non-plan preference, inside the turn
// (R-PLAN-2), and lets the rest of the turn carry the plan out.
func (t *turn) leavePlan() error {
	prev, err := t.rt.opts.Store.LeavePlan(t.sessionID)
	if err != nil {
		return err
	}
	t.rt.opts.Publish(EventModeChanged, ModeView{SessionID: t.sessionID, InteractionMode: prev.Interaction,
		ExecutionOverride: prev.Override, Reason: mode.ReasonPlanApproved})
	t.pref = prev
	t.exec = prev.Unrouted() // the approved plan is the route
	return nil
}
