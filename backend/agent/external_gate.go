package agent

import (
	"context"
	"fmt"

	"agentdesk/backend/decision"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// gateCalls are the calls AgentDesk's gate decides for one of the agent's tool calls: its ACP
// kind says what it does, its locations, diffs and input say where. A kind the gate cannot
// read, or a path kind without a path, or a command without its text, is KindOther: it asks.
func gateCalls(c ExternalToolCall) []policy.Call {
	var kind policy.Kind
	switch c.Kind {
	case "read":
		kind = policy.KindRead
	case "edit":
		kind = policy.KindEdit
	case "delete", "move":
		kind = policy.KindWrite // a file taken away or renamed is changed as a whole
	case "execute":
		if cmd := commandOf(c.Input); cmd != "" {
			return []policy.Call{{Kind: policy.KindBash, Command: cmd}}
		}
		return []policy.Call{{Kind: policy.KindOther}}
	case "fetch":
		return []policy.Call{{Kind: policy.KindFetch}}
	default:
		return []policy.Call{{Kind: policy.KindOther}}
	}
	var out []policy.Call
	for _, p := range pathsOf(c) {
		out = append(out, policy.Call{Kind: kind, Path: p})
	}
	if len(out) == 0 {
		return []policy.Call{{Kind: policy.KindOther}}
	}
	return out
}

// gateExternal puts every gate call of c through the gate, as the built-in loop does for its
// own tools (the turn's execution mode, the session's permission, rules and grants), and
// returns the strictest: one deny denies, one ask asks.
func (x *extTurn) gateExternal(c ExternalToolCall) (*gated, []*gated, error) {
	var all []*gated
	var worst *gated
	for _, gc := range gateCalls(c) {
		g := &gated{call: provider.ToolCall{ID: c.ID, Name: shortTitle(c), Input: c.Input},
			desc: tool.Call{Gate: gc, Summary: describeCall(c)}}
		v, err := x.t.judge(g)
		if err != nil {
			return nil, nil, err
		}
		g.verdict = v
		all = append(all, g)
		if worst == nil || severity(v.Decision) > severity(worst.verdict.Decision) {
			worst = g
		}
	}
	return worst, all, nil
}

func severity(d policy.Decision) int {
	switch d {
	case policy.DecideAllow:
		return 0
	case policy.DecideAsk:
		return 1
	}
	return 2
}

// Permission answers the agent's request with AgentDesk's gate: allow_once where it allows,
// reject_once with the reason where it denies, and the person's answer where it asks. The
// call is described by the request's own tool call merged with everything reported before.
func (x *extTurn) Permission(ctx context.Context, p ExternalPermission) (ExternalAnswer, error) {
	if p.Call.ID == "" {
		x.mu.Lock()
		x.fsCalls++
		p.Call.ID = fmt.Sprintf("permission-%d", x.fsCalls)
		x.mu.Unlock()
	}
	x.mu.Lock()
	opened := x.openLocked(p.Call)
	x.recordCallLocked(opened) // described in full now: this is what the log keeps
	call := *opened
	x.mu.Unlock()
	ans, err := x.permission(ctx, call, p.Options)
	if err == nil && ans.Reason != "" {
		// Agents need not read _meta: the reason also opens their next prompt.
		note := "[AgentDesk] The tool call \"" + shortTitle(call.ExternalToolCall) + "\" was declined: " + ans.Reason
		if nerr := x.t.rt.opts.Store.AddAgentNote(x.t.sessionID, note); nerr != nil {
			return ExternalAnswer{}, nerr
		}
	}
	return ans, err
}

func (x *extTurn) permission(ctx context.Context, call extCall, options []ExternalOption) (ExternalAnswer, error) {
	g, all, err := x.gateExternal(call.ExternalToolCall)
	if err != nil {
		return ExternalAnswer{}, err
	}
	x.showVerdict(call.ID, g.verdict)
	switch g.verdict.Decision {
	case policy.DecideAllow:
		if id := optionOf(options, "allow_once"); id != "" {
			x.clear(all)
			return ExternalAnswer{OptionID: id}, nil
		}
		// Only a remembering allow is offered: the person decides whether the agent may keep it.
	case policy.DecideDeny:
		return ExternalAnswer{OptionID: optionOf(options, "reject_once", "reject_always"),
			Reason: x.t.rt.errorText(g.verdict.Err())}, nil
	}
	return x.approveExternal(ctx, g, all, call, options)
}

// showVerdict updates the call's card with the gate's verdict and keeps it for the log.
func (x *extTurn) showVerdict(id string, v policy.Verdict) {
	x.mu.Lock()
	defer x.mu.Unlock()
	call := x.calls[id]
	if call == nil {
		return
	}
	call.verdict, call.layer, call.code = string(v.Decision), string(v.Layer), string(v.Code)
	x.publishCardLocked(call, v)
}

// approveExternal asks the person, as the built-in gate does: the same queue, timeout and
// first-resolver rules, and "allow for this session" and "always allow" saved as AgentDesk's
// own grant and rule. The agent is always answered allow_once, so AgentDesk's gate — not the
// agent's memory — answers its next request.
func (x *extTurn) approveExternal(ctx context.Context, g *gated, all []*gated, call extCall, options []ExternalOption) (ExternalAnswer, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(x.t.ctx, cancel)
	defer stop()
	payload := approvalPayload(g)
	once := len(all) > 1 || g.desc.Gate.Kind.AsksAlways() || g.verdict.Code == policy.ProtectedPath
	if once {
		payload.Scopes = nil
	}
	payload.Agent = AgentName(x.command)
	if len(call.Diffs) > 0 {
		payload.Diff = unifiedDiffs(call.Diffs)
	}
	res, err := x.t.askIn(ctx, decision.KindApproval, payload)
	if err != nil {
		return ExternalAnswer{}, err
	}
	if gerr := decision.GateError(res); gerr != nil {
		x.setApproved(call.ID, string(res.Outcome))
		if res.Outcome == decision.Cancelled || res.Outcome == decision.Interrupted {
			return ExternalAnswer{}, nil
		}
		return ExternalAnswer{OptionID: optionOf(options, "reject_once", "reject_always"), Reason: x.t.rt.errorText(gerr)}, nil
	}
	a, err := decision.ParseApproval(res.Answer)
	if err != nil {
		return ExternalAnswer{}, err
	}
	x.setApproved(call.ID, string(a.Choice))
	if err := x.save(g, a, once); err != nil {
		return ExternalAnswer{}, err
	}
	x.clear(all)
	return ExternalAnswer{OptionID: optionOf(options, "allow_once", "allow_always")}, nil
}

// save keeps "allow for this session" as a grant and "always allow" as a rule, exactly as the
// built-in gate does; a call that can only be allowed once saves nothing.
func (x *extTurn) save(g *gated, a decision.ApprovalAnswer, once bool) error {
	if once {
		return nil
	}
	switch a.Choice {
	case decision.AllowSession:
		return x.t.rt.opts.Store.AddGrant(x.t.sessionID, grantFor(g, a.Scope))
	case decision.AllowAlways:
		_, err := x.t.rt.opts.Store.AddRule(ruleFor(g, a.Scope), "approval:"+x.t.sessionID)
		return x.t.ruleAdded(err)
	}
	return nil
}

func (x *extTurn) setApproved(id, how string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if call := x.calls[id]; call != nil {
		call.approved = how
	}
}

// clear notes the files an allowed call changes, for its fs/write_text_file.
func (x *extTurn) clear(all []*gated) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, g := range all {
		if g.desc.Gate.Kind.Mutates() && g.resolved.Target.Resolved {
			x.cleared[g.resolved.Target.Path] = true
		}
	}
}

// optionOf is the id of the first offered option of the first kind in kinds that has one.
func optionOf(options []ExternalOption, kinds ...string) string {
	for _, kind := range kinds {
		for _, o := range options {
			if o.Kind == kind {
				return o.ID
			}
		}
	}
	return ""
}

// ExternalOptionFor picks the agent's option for the person's choice. Every allow is the
// agent's allow_once, so the agent asks again next time and AgentDesk's grant or rule answers
// it; a rejection is reject_once. Where the agent lacks the kind, the nearest one of the same
// sense is used.
func ExternalOptionFor(c decision.Choice, options []ExternalOption) string {
	switch c {
	case decision.AllowOnce, decision.AllowSession, decision.AllowAlways:
		return optionOf(options, "allow_once", "allow_always")
	case decision.Reject:
		return optionOf(options, "reject_once", "reject_always")
	}
	return ""
}
