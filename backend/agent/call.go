package agent

import (
	"encoding/json"
	"errors"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/tool"
)

// UnknownTool is a call to a tool this build does not have.
const UnknownTool errs.Kind = "UNKNOWN_TOOL"

// ToolCallView is the payload of tool.call: the card the transcript shows, with the verdict.
type ToolCallView struct {
	SessionID string          `json:"sessionId"`
	TurnID    string          `json:"turnId"`
	CallID    string          `json:"callId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Summary   string          `json:"summary"`
	Verdict   string          `json:"verdict"`
	Layer     string          `json:"layer,omitempty"`
	Code      string          `json:"code,omitempty"`
	ReasonKey string          `json:"reasonKey,omitempty"`
	// Server names the MCP server of an MCP tool; empty for the built-in tools.
	Server string `json:"server,omitempty"`
	// Change is what a write or an edit will do to its file, read before the call runs (an
	// announcement held back until the result would otherwise read the file already changed).
	// Only the ACP server shows it on the call; the window has it on the approval card.
	Change *display.Change `json:"-"`
}

// ToolDoneView is the payload of tool.done.
type ToolDoneView struct {
	SessionID string           `json:"sessionId"`
	TurnID    string           `json:"turnId"`
	CallID    string           `json:"callId"`
	Name      string           `json:"name"`
	Output    string           `json:"output"`
	IsError   bool             `json:"isError"`
	Approved  string           `json:"approved,omitempty"`
	Display   *display.Message `json:"display,omitempty"`
	Answered  bool             `json:"answered,omitempty"`
}

// gated is one call on its way through the gate.
type gated struct {
	call     provider.ToolCall
	tool     tool.Tool
	desc     tool.Call
	resolved policy.Resolved
	verdict  policy.Verdict
	approved string
	// escalated: the person approved this bash call's step out of the sandbox.
	escalated bool
	// why says to the person why a decision about this call ended without their yes.
	why *display.Message
	// staged is the call's change held for review before apply, hunk by hunk (staged.go).
	staged *staging
	// sensitive is the sensitive paths list the gate judged the call with, and masks what the
	// sandbox hides of it from a shell command (policy.SensitiveMasks).
	sensitive policy.SensitiveList
	masks     []string
	// change is the write's or edit's preview as of the announcement, before the tool ran.
	change *display.Change
	// toolChange is an MCP tool's changed definition (tool.ChangedServed.Change): the call asks
	// the person to approve the change before it runs.
	toolChange string
}

// onceOnly reports a verdict no saved answer can meet: a protected or sensitive path asks
// before any grant or rule is read, so an approval of one is for that call only.
func onceOnly(v policy.Verdict) bool {
	return v.Code == policy.ProtectedPath || v.Code == policy.SensitivePath
}

// handle takes one call through describe, the gate (hard layer), an approval when the gate
// asks, and the tool itself; the model gets the result or the error in the same turn.
func (t *turn) handle(c provider.ToolCall) error {
	g := &gated{call: c}
	res, err := t.decide(g)
	if err == nil && res == nil {
		res, err = t.execute(g)
	}
	if err != nil {
		if errors.Is(err, errSuspended) { // the call waits for the next start, unanswered
			return err
		}
		if t.ctx.Err() != nil {
			t.abandon([]provider.ToolCall{c})
			return t.ctx.Err()
		}
		res = &tool.Result{Output: t.rt.errorText(err), IsError: true, Display: g.why}
		if res.Display == nil {
			res.Display = displayOf(err)
		}
	}
	return t.finishCall(g, *res)
}

// decide runs everything before the tool: it returns a result only when the call must not run.
func (t *turn) decide(g *gated) (*tool.Result, error) {
	var err error
	if g.tool, err = t.lookup(g.call.Name); err != nil {
		return nil, err
	}
	if g.desc, err = g.tool.Describe(g.call.Input); err != nil {
		return nil, err
	}
	if g.verdict, err = t.evaluate(g); err != nil {
		return nil, err
	}
	askChange(g)
	if g.verdict.Decision != policy.DecideDeny { // a refused file is never read, not even to show it
		g.change = t.preview(g)
	}
	if err := t.announceCall(g); err != nil {
		return nil, err
	}
	switch g.verdict.Decision {
	case policy.DecideAllow:
		return nil, nil
	case policy.DecideAsk:
		return nil, t.approve(g)
	}
	return nil, g.verdict.Err()
}

// reasonMCPChanged explains the question about a changed MCP tool.
const reasonMCPChanged = "gate.reason.mcp_changed"

// askChange makes the call of an MCP tool that changed since the person approved it ask, in any
// permission, showing the change: nothing the gate would deny is asked about.
func askChange(g *gated) {
	ch, ok := g.tool.(tool.ChangedServed)
	if !ok || g.verdict.Decision == policy.DecideDeny {
		return
	}
	if g.toolChange = ch.Change(); g.toolChange != "" {
		g.verdict = policy.Verdict{Decision: policy.DecideAsk, Layer: policy.LayerMode, Code: errs.KindOf(ch.ChangeRefusal()),
			ReasonKey: reasonMCPChanged, ReasonArgs: map[string]any{"Server": ch.Server()}}
	}
}

// evaluate resolves the call's path and asks the pure gate. The permission, rules and grants
// are as of this call (read again whenever they changed, GateCache), so a permission change
// takes effect at the next call.
func (t *turn) evaluate(g *gated) (policy.Verdict, error) {
	var err error
	g.resolved, err = policy.Resolve(policy.Workspace{Root: t.workspace, DataDir: t.rt.opts.DataDir}, g.desc.Gate)
	if err != nil {
		return policy.Verdict{}, err
	}
	return t.verdictOf(g, sandboxed(), false)
}

// sandboxMasks reports whether the sandbox can hide files from a shell command: only a mount
// namespace can, so without one every shell command asks while a sensitive path exists.
func sandboxMasks() bool {
	st := sandbox.Status()
	return st.Kind == sandbox.KindLandlock && st.Namespaces
}

// judge is evaluate for a call AgentDesk did not describe itself (an external agent's): a path
// that cannot be resolved is not an error but an unresolved target, which the gate asks about.
// The agent runs its commands itself, outside AgentDesk's sandbox, so the gate judges them as
// unconfined: in Auto even a read-only command asks.
func (t *turn) judge(g *gated) (policy.Verdict, error) {
	g.resolved, _ = policy.Resolve(policy.Workspace{Root: t.workspace, DataDir: t.rt.opts.DataDir}, g.desc.Gate)
	return t.verdictOf(g, false, true)
}

// verdictOf asks the pure gate about a resolved call. For a shell command that the sandbox can
// mask files from, it first finds what the sensitive list covers in the workspace: the sandbox
// hides those, and a walk that could not finish leaves the gate asking.
//
// An external agent's command (external) is not held to the masking: the agent runs it
// itself, where no sandbox of AgentDesk's could hide a file, and its own file reads reach the
// gate as read calls judged by path. Only what its command names is held against the list;
// asking for every command because nothing could be masked would ask for all of them, always.
func (t *turn) verdictOf(g *gated, sandboxed, external bool) (policy.Verdict, error) {
	in, err := t.rt.opts.Store.GateInputsCached(&t.gate, t.sessionID)
	if err != nil {
		return policy.Verdict{}, err
	}
	// An unreadable stored list reads as the default one: the strict answer.
	g.sensitive, _ = t.rt.opts.Store.SensitivePaths()
	masked := external
	if g.desc.Gate.Kind == policy.KindBash && !external && sandboxed && sandboxMasks() {
		g.masks, masked = policy.SensitiveMasks(g.sensitive, t.workspace)
	}
	task := false
	if g.desc.Gate.Kind == policy.KindBash && sandboxed && sandboxMasks() {
		tg, err := t.taskGit()
		if err != nil {
			return policy.Verdict{}, err
		}
		task = tg != nil
	}
	return policy.Evaluate(policy.Input{Mode: t.exec, Permission: in.Permission, Rules: in.Rules, Grants: in.Grants,
		Call: g.resolved, Sandboxed: sandboxed, Sensitive: g.sensitive, SensitiveMasked: masked, TaskGit: task}), nil
}

// sandboxed reports whether shell commands run under the kernel sandbox here.
func sandboxed() bool { return sandbox.Status().Kind == sandbox.KindLandlock }

// execute runs an allowed call and keeps the verified turn's bookkeeping.
func (t *turn) execute(g *gated) (*tool.Result, error) {
	key := deltaKey{SessionID: t.sessionID, TurnID: t.active.turnID, CallID: g.call.ID}
	env := tool.Env{Workspace: t.workspace, Ask: t.askQuestionFor(g), ReviewPlan: t.reviewPlanFor(g), Elicit: t.elicit,
		Output: func(chunk string) { t.deltas.add(EventToolOutput, key, chunk) }, Progress: t.progressOf(g), Sample: t.sample, Sensitive: g.sensitive}
	env.Files = t.rt.filesFor(t.sessionID, g.desc.Gate.Kind)
	err := t.confine(g, &env)
	if err != nil {
		return nil, err
	}
	var res tool.Result
	t.aroundTool(g, func() {
		if g.staged.partial() {
			res, err = t.runPartial(g, env)
			return
		}
		res, err = g.tool.Run(t.ctx, env, g.call.Input)
	})
	t.deltas.flush()
	if err != nil {
		return nil, err
	}
	if g.desc.Gate.Kind == policy.KindBash {
		if err := t.settleTaskObjects(); err != nil {
			return nil, err
		}
	}
	t.track(g.desc.Gate.Kind, res)
	if g.tool.Name() == mode.ToolExitPlanMode && !res.IsError {
		if err := t.leavePlan(); err != nil {
			return nil, err
		}
	}
	return &res, nil
}

// confine hands the tool what the gate approved: the resolved path for a file tool (it
// refuses if the path resolves elsewhere now), and the sandbox's terms for a shell command.
func (t *turn) confine(g *gated, env *tool.Env) error {
	if g.desc.Gate.Kind.HasPath() {
		target := g.resolved.Target
		env.Target = &target
	}
	if g.desc.Gate.Kind != policy.KindBash {
		return nil
	}
	opts, err := t.shellOptions(g)
	env.Shell = opts
	return err
}

// shellOptions are the sandbox's terms for a bash call: what the person approved of stepping
// out, the hardened read-only class, the paths deny rules hide, the variables kept.
func (t *turn) shellOptions(g *gated) (tool.ShellOptions, error) {
	pass, err := t.rt.opts.Store.ShellPassEnv()
	if err != nil {
		return tool.ShellOptions{}, err
	}
	in, err := t.rt.opts.Store.GateInputsCached(&t.gate, t.sessionID)
	if err != nil {
		return tool.ShellOptions{}, err
	}
	hide, _ := policy.MaskedPaths(in.Rules, t.workspace)
	masks := g.masks
	if g.approved != "" && g.verdict.Code == policy.SensitivePath {
		// The person approved a command that names sensitive paths: those are shown to it, this
		// call only; every other one stays hidden.
		_, named := policy.SensitiveNamed(g.sensitive, g.resolved.Shell)
		masks = policy.SensitiveHide(masks, named, t.workspace)
	}
	hide = append(hide, masks...)
	task, err := t.taskGit()
	if err != nil {
		return tool.ShellOptions{}, err
	}
	esc := g.desc.Gate.Escalation
	network := g.escalated && esc == policy.EscalateNetwork
	return tool.ShellOptions{
		Network:     network,
		Proxy:       t.hostProxy(g.desc.Gate.Command, network),
		Unsandboxed: g.escalated && esc == policy.EscalateUnsandboxed,
		// The gate lets a git write run only when the person approved it, now or for the session;
		// in a task's own worktree it needs no approval, and the sandbox opens that task's git
		// folders only (Task), never the whole repository.
		GitWrite:  esc == policy.EscalateGit && task == nil,
		HardenGit: g.verdict.Decision == policy.DecideAllow && g.verdict.ReasonKey == policy.ReasonReadOnlyShell,
		DataDir:   t.rt.opts.DataDir,
		PassEnv:   pass,
		Hide:      hide,
		Task:      task,
	}, nil
}

// track notes changes and passing verifications: any successful bash command after the last
// change counts as a verification that passed.
func (t *turn) track(k policy.Kind, res tool.Result) {
	if res.IsError {
		return
	}
	switch k {
	case policy.KindBash:
		t.mutated, t.verified = false, true
	case policy.KindWrite, policy.KindEdit:
		t.mutated, t.verified = true, false
	}
}

func (t *turn) finishCall(g *gated, res tool.Result) error {
	rec := eventlog.ToolResult{TurnID: t.active.turnID, CallID: g.call.ID, Name: g.call.Name, Content: res.Output,
		IsError: res.IsError, Verdict: string(g.verdict.Decision), Layer: string(g.verdict.Layer),
		Code: string(g.verdict.Code), Approved: g.approved, Display: res.Display, Answered: res.Answered}
	done := func() {
		t.deltas.end(deltaKey{SessionID: t.sessionID, TurnID: t.active.turnID, CallID: g.call.ID})
		t.rt.opts.Publish(EventToolDone, ToolDoneView{SessionID: t.sessionID, TurnID: t.active.turnID, CallID: g.call.ID,
			Name: g.call.Name, Output: res.Output, IsError: res.IsError, Approved: g.approved, Display: res.Display,
			Answered: res.Answered})
	}
	if holdsBack(g) {
		return t.hold(rec, done)
	}
	if err := t.record(rec); err != nil {
		return err
	}
	done()
	return nil
}

func (t *turn) publishCall(g *gated) {
	t.rt.opts.Publish(EventToolCall, ToolCallView{SessionID: t.sessionID, TurnID: t.active.turnID, CallID: g.call.ID,
		Name: g.call.Name, Input: g.call.Input, Summary: g.desc.Summary, Verdict: string(g.verdict.Decision),
		Layer: string(g.verdict.Layer), Code: string(g.verdict.Code), ReasonKey: g.verdict.ReasonKey, Server: serverOf(g.tool), Change: g.change})
}
