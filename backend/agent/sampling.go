package agent

import (
	"context"
	"errors"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// An MCP server's sampling request uses the session's own model, and only as the person
// decides in the composer: allowed once, allowed for that server for the rest of the session
// (a grant), or denied. It is never answered silently, and never in Chat, which calls no tool.

// SamplingInChat: a sampling request arrived in Chat mode. Args: Server.
const SamplingInChat errs.Kind = "SAMPLING_IN_CHAT"

// SamplingDeclined: the person denied a sampling request, or no one could answer it. Args:
// Server, Reason (the person's words, or why no one answered).
const SamplingDeclined errs.Kind = "SAMPLING_DECLINED"

// samplingTokenCap bounds what a server may ask the model to write in one request.
const samplingTokenCap = 4096

// sample answers a server's sampling request with the session's model once the person
// allowed it. The error's text is what the server reads, in English.
func (t *turn) sample(ctx context.Context, r tool.SamplingRequest) (tool.SamplingResult, error) {
	prov, err := t.provider()
	if err != nil {
		return tool.SamplingResult{}, t.toServer(err)
	}
	if err := t.allowSampling(ctx, r, modelOf(prov)); err != nil {
		return tool.SamplingResult{}, t.toServer(err)
	}
	resp, err := prov.Stream(ctx, samplingRequest(r), nil)
	if err != nil {
		return tool.SamplingResult{}, t.toServer(err)
	}
	return tool.SamplingResult{Text: resp.Text, Model: modelOf(prov), StopReason: stopReasonOf(resp.StopReason)}, nil
}

// allowSampling is the person's say: a session grant for the server, else a decision that
// names the model which would answer.
func (t *turn) allowSampling(ctx context.Context, r tool.SamplingRequest, model string) error {
	if t.profile().MCP == mode.MCPNone { // no MCP tool runs in such a mode, so none may sample
		return errs.New(SamplingInChat, "Server", r.Server)
	}
	in, err := t.rt.opts.Store.GateInputsCached(&t.gate, t.sessionID)
	if err != nil {
		return err
	}
	if policy.SamplingAllowed(in.Grants, r.Server) {
		return nil
	}
	res, err := t.askIn(ctx, decision.KindSampling, samplingPayload(r, model))
	if err != nil {
		return err
	}
	if err := decision.GateError(res); err != nil {
		return errs.Wrap(SamplingDeclined, err, "Server", r.Server, "Reason", t.rt.reasonText(err))
	}
	a, err := decision.ParseSampling(res.Answer)
	if err != nil {
		return err
	}
	if a.Choice == decision.SampleServer {
		return t.rt.opts.Store.AddSamplingGrant(t.sessionID, r.Server)
	}
	return nil
}

// toServer is err as the server reads it: the English sentence, without AgentDesk's code
// (the server shows it to its own caller, often the model, inside its own error).
func (t *turn) toServer(err error) error {
	return errors.New(t.rt.reasonText(err))
}

// provider is the turn's model for a sampling request, which runs on the MCP connection's
// goroutine: the one chosen at the turn's first request, else the session's (a call the person
// ran comes before any request).
func (t *turn) provider() (provider.Provider, error) {
	t.provMu.Lock()
	p := t.prov
	t.provMu.Unlock()
	if p != nil {
		return p, nil
	}
	return t.rt.opts.Provider(t.sessionID)
}

// samplingTokens is what the model may write for r: what the server asked, within the cap.
// The card shows exactly this number.
func samplingTokens(r tool.SamplingRequest) int {
	return min(max(r.MaxTokens, 1), samplingTokenCap)
}

func samplingPayload(r tool.SamplingRequest, model string) decision.SamplingPayload {
	p := decision.SamplingPayload{Server: r.Server, Tool: r.Tool, Model: model, SystemPrompt: r.SystemPrompt,
		MaxTokens: samplingTokens(r), Messages: []decision.SamplingMessage{}}
	for _, m := range r.Messages {
		p.Messages = append(p.Messages, decision.SamplingMessage{Role: m.Role, Text: m.Text})
	}
	return p
}

// samplingRequest is the server's prompt as a model request without tools.
func samplingRequest(r tool.SamplingRequest) provider.Request {
	req := provider.Request{System: r.SystemPrompt, MaxTokens: samplingTokens(r)}
	for _, m := range r.Messages {
		role := provider.RoleUser
		if m.Role == string(provider.RoleAssistant) {
			role = provider.RoleAssistant
		}
		req.Messages = append(req.Messages, provider.Message{Role: role, Text: m.Text})
	}
	return req
}

// modelOf names the model a provider sends to: its model where it says, else the provider.
func modelOf(p provider.Provider) string {
	for q := p; q != nil; {
		if m, ok := q.(interface{ Model() string }); ok && m.Model() != "" {
			return m.Model()
		}
		u, ok := q.(interface{ Unwrap() provider.Provider })
		if !ok {
			break
		}
		q = u.Unwrap()
	}
	return p.Name()
}

// stopReasonOf is a provider's stop reason in MCP's words.
func stopReasonOf(reason string) string {
	switch reason {
	case provider.StopEndTurn:
		return "endTurn"
	case provider.StopMaxTokens:
		return "maxTokens"
	}
	return reason
}
