package policy

import "agentdesk/backend/mode"

// Input is everything the gate decides on.
type Input struct {
	Mode       mode.ExecutionMode
	Permission PermissionMode
	Rules      []Rule
	Grants     []Grant
	Call       Resolved
	// Sandboxed says shell commands run under the kernel sandbox. Without it Auto's read-only
	// shell class is off and every shell command asks there: the allowlist alone is not
	// trusted to contain a command. The zero value is the strict one.
	Sandboxed bool
	// Sensitive is the list of sensitive paths (sensitive.go); the zero value is the default
	// list. SensitiveMasked says the sandbox hides every listed file inside the workspace from
	// this shell command (namespaces, and a walk that found them all); without it a command
	// asks, since its reads cannot be seen in advance. The zero value is the strict one.
	Sensitive       SensitiveList
	SensitiveMasked bool
	// TaskGit says the session runs in a worktree of its own whose git folders the sandbox opens
	// to its commands (sandbox.Policy.Task, with namespaces): a git command that changes the
	// repository needs no "git" escalation there and is judged as any other command. The zero
	// value is the strict one.
	TaskGit bool
}

// Evaluate decides one tool call (R-GATE-1). It is pure: all file-system facts come resolved in
// in.Call. The layers run in a fixed order and the first that decides wins:
//
//  1. the execution mode's hard deny — outranks every permission mode, full included (for an
//     MCP tool it reads the tool's read-only annotation, mcp.go);
//  2. deny rules, the sensitive list and protected paths — a deny rule denies, a sensitive path
//     asks (denied in Full), a protected or unresolved path asks;
//  3. session grants, then always-allow rules — one that recorded the scripts its command
//     runs holds only while they are unchanged (scripts.go);
//  4. the permission mode (R-GATE-3).
//
// A bash call that asks to step out of the sandbox (an escalation), a fetch and a call of
// unknown kind ask after layer 2, in every permission mode: no grant or rule answers them in
// advance, except the session's own grant of the "git" escalation, after which the command is
// judged like any other.
//
// Failing closed: an unknown execution mode has the read-only profile, and an unknown
// permission mode skips layer 3 and asks for everything but reads inside the workspace, so an
// unrecognized mode never yields allow for write, edit or bash.
func Evaluate(in Input) Verdict {
	c := in.Call
	if code, denied := hardDeny(in.Mode, c.Call); denied {
		v := deny(LayerProfile, code)
		v.ReasonArgs = map[string]any{"Mode": string(in.Mode), "Tool": string(c.Call.Kind)}
		if c.Call.Kind == KindMCP {
			v.ReasonArgs["Tool"] = c.Call.MCP.Name()
		}
		return v
	}
	sh := c.Shell
	if c.Call.Kind == KindBash && sh == nil {
		analyzed := AnalyzeShell(c.Call.Command, nil)
		sh = &analyzed
	}
	if v, done := denyRules(in.Rules, c, sh); done {
		return v
	}
	if v, done := sensitiveLayer(in, sh); done {
		return v
	}
	if v, done := protectedLayer(c); done {
		return v
	}
	if c.Call.Kind == KindBash && c.Call.Escalation == EscalateGit && in.TaskGit && in.Sandboxed {
		c.Call.Escalation = NoEscalation // the task's own git: the sandbox keeps the rest read-only
	}
	if c.Call.Kind == KindBash && c.Call.Escalation != NoEscalation && !gitWriteGranted(in.Grants, c.Call.Escalation) {
		return escalation(c.Call.Escalation)
	}
	if c.Call.Kind.AsksAlways() {
		return alwaysAsks(c.Call.Kind)
	}
	if c.Call.Kind == KindMCP && !c.Call.MCP.named() {
		return ask(LayerMode, "", "gate.reason.mcp_unnamed")
	}
	if !in.Permission.Valid() {
		return unknownPermission(c)
	}
	if v, done := allowLayer(in.Grants, in.Rules, c, sh); done {
		return v
	}
	if c.Call.Kind == KindMCP {
		return mcpVerdict(in.Mode, in.Permission)
	}
	return staleScripts(permissionLayer(in.Permission, c, sh, in.Sandboxed), in.Grants, in.Rules, c, sh)
}

// ReasonReadOnlyShell is the reason of a command allowed as Auto's read-only class; the shell
// then runs git with a hardened environment.
const ReasonReadOnlyShell = "gate.reason.read_only_shell"

// escalation asks for a step out of the sandbox; an unknown one asks as the widest.
func escalation(e Escalation) Verdict {
	if e != EscalateNetwork && e != EscalateGit {
		e = EscalateUnsandboxed
	}
	v := ask(LayerSandbox, SandboxEscalation, "gate.reason.escalate."+string(e))
	v.ReasonArgs = map[string]any{"Escalation": string(e)}
	return v
}

// alwaysAsks is the verdict on a fetch or a call of unknown kind once no deny decided it.
func alwaysAsks(k Kind) Verdict {
	if k == KindFetch {
		return ask(LayerSandbox, NetworkFetch, "gate.reason.fetch")
	}
	return ask(LayerMode, "", "gate.reason.unknown_kind")
}

// denyRules is layer 2's deny rules.
func denyRules(rules []Rule, c Resolved, sh *Shell) (Verdict, bool) {
	for _, r := range rules {
		if r.Effect == Allow {
			continue
		}
		switch r.match(c, sh) {
		case matched:
			v := deny(LayerRule, DeniedByRule)
			v.RuleID = r.ID
			v.ReasonArgs = map[string]any{"Rule": r.ID}
			return v, true
		case uncertain:
			v := ask(LayerRule, DeniedByRule, "gate.reason.rule_uncertain")
			v.RuleID = r.ID
			return v, true
		}
	}
	return Verdict{}, false
}

// protectedLayer is layer 2's protected and unresolved paths.
func protectedLayer(c Resolved) (Verdict, bool) {
	if !c.Call.Kind.HasPath() {
		return Verdict{}, false
	}
	switch {
	case !c.Target.Resolved:
		return ask(LayerProtected, PathOutsideWorkspace, "gate.reason.unresolved_path"), true
	case c.Target.Protected != NotProtected:
		v := ask(LayerProtected, ProtectedPath, "gate.reason.protected."+string(c.Target.Protected))
		v.ReasonArgs = map[string]any{"Path": c.Target.Path}
		return v, true
	}
	return Verdict{}, false
}

// allowLayer is layer 3: grants first (they are the more specific, recent choice), then rules.
func allowLayer(grants []Grant, rules []Rule, c Resolved, sh *Shell) (Verdict, bool) {
	for _, g := range grants {
		if g.rule().match(c, sh) == matched && scriptsHold(g.Scripts, c.Scripts) {
			return allow(LayerGrant, "gate.reason.grant"), true
		}
	}
	for _, r := range rules {
		if r.Effect == Allow && r.match(c, sh) == matched && scriptsHold(r.Scripts, c.Scripts) {
			v := allow(LayerRule, "gate.reason.rule_allow")
			v.RuleID = r.ID
			v.ReasonArgs = map[string]any{"Rule": r.ID}
			return v, true
		}
	}
	return Verdict{}, false
}

// permissionLayer is layer 4 (R-GATE-3).
func permissionLayer(p PermissionMode, c Resolved, sh *Shell, sandboxed bool) Verdict {
	switch c.Call.Kind {
	case KindAsk, KindPlanExit:
		return allow(LayerMode, "gate.reason.no_side_effects")
	case KindRead:
		return pathVerdict(p, c.Target, true)
	case KindWrite, KindEdit:
		return pathVerdict(p, c.Target, p.EditsInsideRun())
	case KindBash:
		return shellVerdict(p, sh, sandboxed)
	}
	return ask(LayerMode, "", "gate.reason.unknown_tool")
}

func pathVerdict(p PermissionMode, t Target, insideRuns bool) Verdict {
	switch {
	case p.OutsideRuns():
		return allow(LayerMode, "gate.reason.full_access")
	case !t.Inside:
		return ask(LayerMode, PathOutsideWorkspace, "gate.reason.outside_workspace")
	case insideRuns:
		return allow(LayerMode, "gate.reason.inside_workspace")
	}
	return ask(LayerMode, "", "gate.reason.ask_mode")
}

func shellVerdict(p PermissionMode, sh *Shell, sandboxed bool) Verdict {
	switch {
	case p.AnyShellRuns():
		return allow(LayerMode, "gate.reason.full_access")
	case p.ReadOnlyShellRuns() && !sandboxed:
		return ask(LayerMode, "", "gate.reason.no_sandbox")
	case p.ReadOnlyShellRuns() && sh.ReadOnly:
		return allow(LayerMode, ReasonReadOnlyShell)
	case p.ReadOnlyShellRuns():
		return ask(LayerMode, "", "gate.reason.shell_not_read_only")
	}
	return ask(LayerMode, "", "gate.reason.ask_mode")
}

// unknownPermission is layer 4 for a permission mode we cannot read: reads inside the workspace
// still run (the read-only surface), everything else asks. Grants and allow rules are skipped.
func unknownPermission(c Resolved) Verdict {
	switch {
	case c.Call.Kind == KindAsk || c.Call.Kind == KindPlanExit:
		return allow(LayerMode, "gate.reason.no_side_effects")
	case c.Call.Kind == KindRead && c.Target.Inside:
		return allow(LayerMode, "gate.reason.inside_workspace")
	}
	return ask(LayerMode, "", "gate.reason.unknown_permission")
}
