package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// gateExternal puts every gate call of c through the gate, as the built-in loop does for its
// own tools (the turn's execution mode, the session's permission, rules and grants), and
// returns the strictest: one deny denies, one ask asks.
func (x *extTurn) gateExternal(c external.ToolCall) (*gated, []*gated, error) {
	var all []*gated
	var worst *gated
	for _, gc := range c.GateCalls() {
		g := &gated{call: provider.ToolCall{ID: c.ID, Name: c.ShortTitle(), Input: c.Input},
			desc: tool.Call{Gate: gc, Summary: c.Describe()}}
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
func (x *extTurn) Permission(ctx context.Context, p external.Permission) (external.Answer, error) {
	x.mu.Lock()
	x.asked = true
	x.mu.Unlock()
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
		note := "[AgentDesk] The tool call \"" + call.ShortTitle() + "\" was declined: " + ans.Reason
		if nerr := x.t.rt.opts.Store.AddAgentNote(x.t.sessionID, note); nerr != nil {
			return external.Answer{}, nerr
		}
	}
	return ans, err
}

func (x *extTurn) permission(ctx context.Context, call extCall, options []external.Option) (external.Answer, error) {
	g, all, err := x.gateExternal(call.ToolCall)
	if err != nil {
		return external.Answer{}, err
	}
	x.showVerdict(call.ID, g.verdict)
	switch g.verdict.Decision {
	case policy.DecideAllow:
		if id := external.AllowOnceOption(options); id != "" {
			x.clear(all)
			return external.Answer{OptionID: id}, nil
		}
		// Only a remembering allow is offered: the person decides whether the agent may keep it.
	case policy.DecideDeny:
		return external.Answer{OptionID: external.RejectOption(options),
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
func (x *extTurn) approveExternal(ctx context.Context, g *gated, all []*gated, call extCall, options []external.Option) (external.Answer, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(x.t.ctx, cancel)
	defer stop()
	payload := approvalPayload(g)
	once := len(all) > 1 || g.desc.Gate.Kind.AsksAlways() || onceOnly(g.verdict)
	if once {
		payload.Scopes = nil
	}
	payload.Agent = external.AgentName(x.command)
	if len(call.Diffs) > 0 {
		payload.Diff = external.UnifiedDiff(call.Diffs)
	}
	res, err := x.t.askIn(ctx, decision.KindApproval, payload)
	if err != nil {
		return external.Answer{}, err
	}
	if gerr := decision.GateError(res); gerr != nil {
		x.setApproved(call.ID, string(res.Outcome))
		if res.Outcome == decision.Cancelled || res.Outcome == decision.Interrupted {
			return external.Answer{}, nil
		}
		return external.Answer{OptionID: external.RejectOption(options), Reason: x.t.rt.errorText(gerr)}, nil
	}
	a, err := decision.ParseApproval(res.Answer)
	if err != nil {
		return external.Answer{}, err
	}
	x.setApproved(call.ID, string(a.Choice))
	if err := x.save(g, a, once); err != nil {
		return external.Answer{}, err
	}
	x.clear(all)
	return external.Answer{OptionID: external.AllowOption(options)}, nil
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

// ReadTextFile is ACP's fs/read_text_file through the gate and the read tool's way to the file.
// A read the gate allows runs without a card (the agent shows its own call); one it asks about
// or denies gets one.
func (x *extTurn) ReadTextFile(ctx context.Context, path string, line, limit int) (string, error) {
	g := &gated{desc: tool.Call{Gate: policy.Call{Kind: policy.KindRead, Path: path}, Summary: path}}
	card, err := x.fsGate(ctx, g, "read", nil)
	if err != nil {
		return "", err
	}
	target := g.resolved.Target
	text, err := tool.ReadText(tool.Env{Workspace: x.t.workspace, Target: &target}, path, line, limit)
	return text, x.endFs(card, fmt.Sprintf("%d bytes", len(text)), err)
}

// WriteTextFile is ACP's fs/write_text_file through the gate and the write tool. The write of
// a change the gate or the person already allowed for one of the agent's calls runs at once;
// any other write is decided like a write of AgentDesk's own, with the change as a diff.
func (x *extTurn) WriteTextFile(ctx context.Context, path, content string) error {
	g := &gated{desc: tool.Call{Gate: policy.Call{Kind: policy.KindWrite, Path: path}, Summary: path}}
	resolved, rerr := policy.Resolve(policy.Workspace{Root: x.t.workspace, DataDir: x.t.rt.opts.DataDir}, g.desc.Gate)
	card := ""
	if rerr != nil || !x.takeCleared(resolved.Target.Path) {
		var old *string
		if prev, err := tool.ReadText(tool.Env{Workspace: x.t.workspace}, path, 0, 0); err == nil {
			old = &prev
		}
		var err error
		if card, err = x.fsGate(ctx, g, "write", []external.Diff{{Path: path, OldText: old, NewText: content}}); err != nil {
			return err
		}
		resolved = g.resolved
	}
	output, err := x.write(ctx, path, content, resolved.Target)
	return x.endFs(card, output, err)
}

// write runs the write tool on the target the gate resolved.
func (x *extTurn) write(ctx context.Context, path, content string, target policy.Target) (string, error) {
	w, ok := x.t.rt.opts.Tools.Get(mode.ToolWrite)
	if !ok {
		return "", errs.New(UnknownTool, "Tool", string(mode.ToolWrite))
	}
	input, err := json.Marshal(map[string]string{"path": path, "content": content})
	if err != nil {
		return "", errs.Wrap(errs.Internal, err)
	}
	// An editor that writes the session's files (UseFiles) writes the external agent's too.
	env := tool.Env{Workspace: x.t.workspace, Target: &target, Files: x.t.rt.filesFor(x.t.sessionID, policy.KindWrite)}
	res, err := w.Run(ctx, env, input)
	if err == nil && res.IsError {
		err = errs.New(tool.ToolFailed, "Tool", string(mode.ToolWrite), "Problem", res.Output)
	}
	return res.Output, err
}

func (x *extTurn) takeCleared(path string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.cleared[path] {
		return false
	}
	delete(x.cleared, path)
	return true
}

// fsGate decides a file-system call. Allowed at once, it returns no card; asked, the person
// answers on a card of its own, which it returns open for the outcome; denied or declined, the
// card is closed and the error is what the agent is told.
func (x *extTurn) fsGate(ctx context.Context, g *gated, verb string, diffs []external.Diff) (string, error) {
	v, err := x.t.judge(g)
	if err != nil {
		return "", x.declined(err)
	}
	return x.clientCall(ctx, g, v, func(id string) external.ToolCall {
		input, _ := json.Marshal(map[string]string{"path": g.desc.Gate.Path})
		c := external.ToolCall{ID: id, Title: verb + " " + g.desc.Gate.Path, Kind: verb,
			Input: input, Locations: []string{g.desc.Gate.Path}, Diffs: diffs}
		if verb == "write" {
			c.Kind = "edit"
		}
		return c
	})
}

// clientCall settles a call the agent made on AgentDesk (a file or a terminal) with the gate's
// verdict v: allowed, it runs without a card (the agent shows its own call); otherwise a card
// built by describe shows it, and the person answers there where the gate asks.
func (x *extTurn) clientCall(ctx context.Context, g *gated, v policy.Verdict, describe func(id string) external.ToolCall) (string, error) {
	g.verdict = v
	if v.Decision == policy.DecideAllow {
		return "", nil
	}
	x.mu.Lock()
	x.fsCalls++
	c := describe(fmt.Sprintf("fs-%d", x.fsCalls))
	g.call = provider.ToolCall{ID: c.ID, Name: c.ShortTitle(), Input: c.Input}
	opened := x.openLocked(c)
	x.recordCallLocked(opened)
	call := *opened
	x.mu.Unlock()
	x.showVerdict(call.ID, v)
	ans := external.Answer{Reason: x.t.rt.errorText(v.Err())}
	var err error
	if v.Decision == policy.DecideAsk {
		ans, err = x.approveExternal(ctx, g, []*gated{g}, call, []external.Option{{ID: "allow", Kind: "allow_once"}, {ID: "reject", Kind: "reject_once"}})
		if err != nil {
			return "", x.endFs(call.ID, "", err)
		}
	}
	if ans.OptionID == "allow" {
		return call.ID, nil
	}
	if ans.Reason == "" {
		ans.Reason = x.t.rt.errorText(errs.New(decision.CodeCancelled))
	}
	return "", x.endFs(call.ID, "", errs.New(external.CallDeclined, "Reason", ans.Reason))
}

// endFs closes a file-system call's card, if it has one, with what came of it, and returns the
// error as the agent is told it.
func (x *extTurn) endFs(id, output string, err error) error {
	err = x.declined(err)
	x.mu.Lock()
	defer x.mu.Unlock()
	if call := x.calls[id]; id != "" && call != nil && call.open {
		if reason, ok := errs.As(err).Args["Reason"].(string); ok && err != nil {
			output = reason
		}
		x.closeLocked(call, output, err != nil)
	}
	return err
}

// declined is a failed file-system call as the agent is told it: the kind and the English
// message a model would read.
func (x *extTurn) declined(err error) error {
	if err == nil || errs.KindOf(err) == external.CallDeclined {
		return err
	}
	return errs.New(external.CallDeclined, "Reason", x.t.rt.errorText(err))
}
