package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// ExternalCallDeclined is a file-system call of an external agent that the gate or the person
// declined, or that failed; the agent is told the reason.
const ExternalCallDeclined errs.Kind = "EXTERNAL_CALL_DECLINED"

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
		if card, err = x.fsGate(ctx, g, "write", []ExternalDiff{{Path: path, OldText: old, NewText: content}}); err != nil {
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
	res, err := w.Run(ctx, tool.Env{Workspace: x.t.workspace, Target: &target}, input)
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
func (x *extTurn) fsGate(ctx context.Context, g *gated, verb string, diffs []ExternalDiff) (string, error) {
	v, err := x.t.judge(g)
	if err != nil {
		return "", x.declined(err)
	}
	g.verdict = v
	if v.Decision == policy.DecideAllow {
		return "", nil
	}
	x.mu.Lock()
	x.fsCalls++
	input, _ := json.Marshal(map[string]string{"path": g.desc.Gate.Path})
	c := ExternalToolCall{ID: fmt.Sprintf("fs-%d", x.fsCalls), Title: verb + " " + g.desc.Gate.Path, Kind: verb,
		Input: input, Locations: []string{g.desc.Gate.Path}, Diffs: diffs}
	if verb == "write" {
		c.Kind = "edit"
	}
	g.call = provider.ToolCall{ID: c.ID, Name: shortTitle(c), Input: input}
	opened := x.openLocked(c)
	x.recordCallLocked(opened)
	call := *opened
	x.mu.Unlock()
	x.showVerdict(call.ID, v)
	ans := ExternalAnswer{Reason: x.t.rt.errorText(v.Err())}
	if v.Decision == policy.DecideAsk {
		ans, err = x.approveExternal(ctx, g, []*gated{g}, call, []ExternalOption{{ID: "allow", Kind: "allow_once"}, {ID: "reject", Kind: "reject_once"}})
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
	return "", x.endFs(call.ID, "", errs.New(ExternalCallDeclined, "Reason", ans.Reason))
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
	if err == nil || errs.KindOf(err) == ExternalCallDeclined {
		return err
	}
	return errs.New(ExternalCallDeclined, "Reason", x.t.rt.errorText(err))
}
