package agent

import (
	"context"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// The MCP servers' tools join the built-in ones here: offered by the MCP column of the mode's
// profile (the same answer the gate's hard layer gives), found by the name the model called,
// and their servers' forms put to the person as elicitation decisions.

// lookup finds the tool a call names: a built-in one, else one of the session's MCP tools.
func (t *turn) lookup(name string) (tool.Tool, error) {
	if tl, ok := t.rt.opts.Tools.Get(mode.Tool(name)); ok {
		return tl, nil
	}
	if t.rt.opts.MCP != nil {
		tl, err := t.rt.opts.MCP.Lookup(t.ctx, t.sessionID, t.workspace, name)
		if err != nil {
			return nil, err
		}
		if tl != nil {
			return tl, nil
		}
	}
	return nil, errs.New(UnknownTool, "Tool", name)
}

// mcpDefs are the definitions of the MCP tools the execution mode offers: none in chat, only
// those whose annotations say read-only in the modes that may not mutate.
func (t *turn) mcpDefs() []tool.Def {
	p := t.profile()
	if t.rt.opts.MCP == nil || p.MCP == mode.MCPNone {
		return nil
	}
	var defs []tool.Def
	for _, s := range t.rt.opts.MCP.Offered(t.ctx, t.sessionID, t.workspace) {
		if p.OffersMCP(s.ReadOnlyHint()) {
			defs = append(defs, tool.Def{Name: string(s.Name()), Description: s.Description(), InputSchema: s.Schema()})
		}
	}
	return defs
}

// serverOf names the MCP server of a tool; "" for a built-in one.
func serverOf(tl tool.Tool) string {
	if s, ok := tl.(tool.Served); ok {
		return s.Server()
	}
	return ""
}

// mcpScope is what "allow for this session" or "always allow" saves for an MCP tool, as the
// approval card shows it.
func mcpScope(r policy.Rule) string {
	if r.MCP == "" {
		return ""
	}
	return policy.MCPRulePrefix + r.MCP
}

// elicit is an MCP server's way to the person while its tool runs: a form decision. A rejected
// one is declined; one that timed out, was cancelled or interrupted is cancel, as MCP calls it.
func (t *turn) elicit(ctx context.Context, e tool.Elicitation) (tool.ElicitAnswer, error) {
	res, err := t.ask(decision.KindElicitation, decision.ElicitationPayload{Server: e.Server, Tool: e.Tool,
		Message: e.Message, Schema: e.Schema})
	if err != nil {
		return tool.ElicitAnswer{}, err
	}
	switch res.Outcome {
	case decision.Answered:
	case decision.Rejected:
		return tool.ElicitAnswer{Action: string(decision.Decline)}, nil
	default:
		return tool.ElicitAnswer{Action: "cancel"}, nil
	}
	a, err := decision.ParseElicitation(res.Answer)
	if err != nil {
		return tool.ElicitAnswer{}, err
	}
	return tool.ElicitAnswer{Action: string(a.Action), Content: a.Content}, nil
}

// ProgressView is the payload of tool.progress: how far a running MCP call has come, as its
// server reports it. It is not logged: the call's result is what stays.
type ProgressView struct {
	SessionID string  `json:"sessionId"`
	TurnID    string  `json:"turnId"`
	CallID    string  `json:"callId"`
	Progress  float64 `json:"progress"`
	Total     float64 `json:"total,omitempty"`
	Message   string  `json:"message,omitempty"`
}

// progressOf announces a call's progress notices.
func (t *turn) progressOf(g *gated) func(tool.Progress) {
	return func(p tool.Progress) {
		t.rt.opts.Publish(EventToolProgress, ProgressView{SessionID: t.sessionID, TurnID: t.active.turnID, CallID: g.call.ID,
			Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}
