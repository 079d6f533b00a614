package agent

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// RunCommand is ACP's terminal/create through the gate and the bash tool: the command is judged
// as one of AgentDesk's own shell commands and runs as they do, in the kernel sandbox with what
// the gate allowed, its output streaming to output. It returns the command's exit code; an
// error is a refusal or a failure to run, as the agent is told it.
func (x *extTurn) RunCommand(ctx context.Context, command string, output func(string)) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(x.t.ctx, cancel)
	defer stop()
	bash, ok := x.t.rt.opts.Tools.Get(mode.ToolBash)
	if !ok {
		return -1, x.declined(errs.New(UnknownTool, "Tool", string(mode.ToolBash)))
	}
	input, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		return -1, x.declined(errs.Wrap(errs.Internal, err))
	}
	desc, err := bash.Describe(input)
	if err != nil {
		return -1, x.declined(err)
	}
	g := &gated{tool: bash, desc: desc, call: provider.ToolCall{Name: string(mode.ToolBash), Input: input}}
	g.resolved, _ = policy.Resolve(policy.Workspace{Root: x.t.workspace, DataDir: x.t.rt.opts.DataDir}, desc.Gate)
	v, err := x.t.verdictOf(g, sandboxed(), false)
	if err != nil {
		return -1, x.declined(err)
	}
	card, err := x.clientCall(ctx, g, v, func(id string) external.ToolCall {
		return external.ToolCall{ID: id, Title: command, Kind: "execute", Input: input}
	})
	if err != nil {
		return -1, err
	}
	env := tool.Env{Workspace: x.t.workspace, Output: output, Sensitive: g.sensitive}
	if err := x.t.confine(g, &env); err != nil {
		return -1, x.endFs(card, "", err)
	}
	res, err := bash.Run(ctx, env, input)
	if err == nil && res.IsError && exitOf(res.Output) < 0 {
		err = errs.New(tool.ToolFailed, "Tool", string(mode.ToolBash), "Problem", res.Output)
	}
	return exitOf(res.Output), x.endFs(card, res.Output, err)
}

// exitLine is the status line the bash tool ends its output with.
var exitLine = regexp.MustCompile(`\[exit code: (-?\d+)\]\s*$`)

// exitOf is the exit code the bash tool reported, or -1 when it reported none (killed, failed).
func exitOf(output string) int {
	m := exitLine.FindStringSubmatch(output)
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return n
}
