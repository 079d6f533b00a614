package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
)

// Option ids of session/request_permission. Approvals offer the four ACP kinds, plus "allow for
// this session", a grant that never leaves the session: only "always allow", which AgentDesk
// keeps as a rule, has kind allow_always; "allow for this session" has kind allow_once, and its
// name says it holds for the session, so a client that picks by kind never saves more than it
// means to. reject_always declines the call exactly like reject_once: AgentDesk writes deny
// rules only in Settings, so an editor's "always reject" is not remembered. Plan reviews offer
// approve (allow_once) and keep planning (reject_once); questions offer one option per choice
// (allow_once, a single pick) and a decline (reject_once). A reason in the response's _meta
// (MetaReason) is the reason of a rejection, or the feedback of "keep planning".
const (
	OptAllowOnce    = "allow_once"
	OptAllowSession = "allow_session"
	OptAllowAlways  = "allow_always"
	OptRejectOnce   = "reject_once"
	OptRejectAlways = "reject_always"
	OptApprovePlan  = "approve"
	// MetaReason is the _meta key of a client's answer that carries its reason.
	MetaReason      = "agentdesk/reason"
	OptKeepPlanning = "keep_planning"
	OptDecline      = "decline"
	OptContinue     = "continue"
	OptStop         = "stop"
	optChoice       = "choice-"
)

// ask puts one decision to the client and resolves it with the answer. A decision that ends
// elsewhere first (another window, the timeout, a cancel) withdraws the request; the registry's
// first resolver wins either way.
func (s *Server) ask(d decision.Decision, callID string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.mu.Lock()
	s.asks[d.ID] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.asks, d.ID)
		s.mu.Unlock()
	}()
	req, err := s.permissionRequest(d, callID)
	if err != nil {
		s.declineUnreadable(d, err)
		return
	}
	resp, err := s.conn.RequestPermission(ctx, req)
	if ctx.Err() != nil {
		return
	}
	if err != nil || resp.Outcome.Selected == nil {
		// A session/cancel sent before this answer has already ended the decision as
		// cancelled (the SDK handles notifications that came first before the response), so
		// this resolution is a no-op then. Otherwise the client declined without cancelling
		// the turn: a decline, and the turn goes on knowing why.
		s.opts.Decisions.Resolve(d.ID, decision.Resolution{Outcome: decision.Rejected, ReasonKey: ReasonClientCancelled,
			Reason: s.opts.Messages.T("en", ReasonClientCancelled, nil)})
		return
	}
	s.opts.Decisions.Resolve(d.ID, resolution(d, string(resp.Outcome.Selected.OptionId), reasonOf(resp)))
}

// declineUnreadable declines a decision whose payload does not read, with the error in words as
// its reason: the model, and the client through the call's result, learn why.
func (s *Server) declineUnreadable(d decision.Decision, err error) {
	s.opts.Decisions.Resolve(d.ID, decision.Resolution{Outcome: decision.Rejected, Reason: s.opts.Messages.Error("en", err)})
}

// ReasonClientCancelled explains a decision the client answered "cancelled" while the turn
// went on (no session/cancel).
const ReasonClientCancelled = "acp.permission.client_cancelled"

// reasonOf is the reason a client put in its answer's _meta, if any.
func reasonOf(resp acp.RequestPermissionResponse) string {
	for _, meta := range []map[string]any{resp.Outcome.Selected.Meta, resp.Meta} {
		if r, ok := meta[MetaReason].(string); ok && strings.TrimSpace(r) != "" {
			return strings.TrimSpace(r)
		}
	}
	return ""
}

// permissionRequest builds the request for a decision of any kind; a payload that does not
// read is an error, and the decision is declined with it rather than shown blind.
func (s *Server) permissionRequest(d decision.Decision, callID string) (acp.RequestPermissionRequest, error) {
	payload, err := d.Read()
	if err != nil {
		return acp.RequestPermissionRequest{}, err
	}
	if callID == "" {
		callID = "decision_" + d.ID
	}
	b := &requestBuilder{s: s, sessionID: d.SessionID, callID: callID}
	b.req = acp.RequestPermissionRequest{SessionId: acp.SessionId(d.SessionID),
		ToolCall: acp.ToolCallUpdate{ToolCallId: acp.ToolCallId(callID), RawInput: rawInput(d.Payload)}}
	decision.Visit(payload, b)
	return b.req, nil
}

// requestBuilder fills a permission request from a decision's payload, one method per kind.
type requestBuilder struct {
	s         *Server
	sessionID string
	callID    string
	req       acp.RequestPermissionRequest
}

func (b *requestBuilder) opt(id string, kind acp.PermissionOptionKind, name string) {
	b.req.Options = append(b.req.Options, acp.PermissionOption{OptionId: acp.PermissionOptionId(id), Kind: kind, Name: name})
}

func (b *requestBuilder) Approval(p decision.ApprovalPayload) {
	s, tc := b.s, &b.req.ToolCall
	d := s.callOf(b.callID, p, b.sessionID)
	tc.Title = acp.Ptr(d.title)
	tc.Content, tc.Locations = d.content(), d.locations
	tc.Kind = acp.Ptr(toolKind(p.Tool))
	tc.Status = acp.Ptr(acp.ToolCallStatusPending)
	b.opt(OptAllowOnce, acp.PermissionOptionKindAllowOnce, s.t("decision.approval.allow_once", nil))
	b.opt(OptAllowSession, acp.PermissionOptionKindAllowOnce, s.t("decision.approval.allow_session", nil))
	b.opt(OptAllowAlways, acp.PermissionOptionKindAllowAlways, s.t("decision.approval.allow_always", nil))
	b.opt(OptRejectOnce, acp.PermissionOptionKindRejectOnce, s.t("decision.approval.reject", nil))
	b.opt(OptRejectAlways, acp.PermissionOptionKindRejectAlways, s.t("acp.permission.reject_always", nil))
}

func (b *requestBuilder) PlanReview(p decision.PlanPayload) {
	s, tc := b.s, &b.req.ToolCall
	tc.Title = acp.Ptr(s.t("acp.permission.plan_title", map[string]any{"Title": firstOf(p.Title, s.t("decision.kind.plan_review", nil))}))
	tc.Kind = acp.Ptr(acp.ToolKindSwitchMode)
	tc.Content = []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(p.Plan))}
	b.opt(OptApprovePlan, acp.PermissionOptionKindAllowOnce, s.t("decision.plan.approve", nil))
	b.opt(OptKeepPlanning, acp.PermissionOptionKindRejectOnce, s.t("decision.plan.keep_planning", nil))
}

func (b *requestBuilder) Sampling(p decision.SamplingPayload) {
	s, tc := b.s, &b.req.ToolCall
	tc.Title = acp.Ptr(s.t("composer.sampling.title", map[string]any{"Server": p.Server}))
	tc.Kind = acp.Ptr(acp.ToolKindThink)
	tc.Content = []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(samplingText(p)))}
	b.opt(OptAllowOnce, acp.PermissionOptionKindAllowOnce, s.t("composer.sampling.allowOnce", nil))
	b.opt(OptAllowSession, acp.PermissionOptionKindAllowOnce, s.t("composer.sampling.allowServer", nil))
	b.opt(OptRejectOnce, acp.PermissionOptionKindRejectOnce, s.t("composer.sampling.deny", nil))
}

func (b *requestBuilder) Question(p decision.QuestionPayload) {
	b.req.ToolCall.Title = acp.Ptr(p.Question)
	b.req.ToolCall.Kind = acp.Ptr(acp.ToolKindThink)
	for i, o := range p.Options {
		b.opt(optChoice+strconv.Itoa(i), acp.PermissionOptionKindAllowOnce, o)
	}
	b.opt(OptDecline, acp.PermissionOptionKindRejectOnce, b.s.t("acp.permission.decline", nil))
}

// Continue asks whether a turn at its step limit goes on.
func (b *requestBuilder) Continue(p decision.ContinuePayload) {
	s := b.s
	b.req.ToolCall.Title = acp.Ptr(s.t("composer.continue.title", map[string]any{"Count": p.Steps}))
	b.req.ToolCall.Kind = acp.Ptr(acp.ToolKindThink)
	b.opt(OptContinue, acp.PermissionOptionKindAllowOnce, s.t("composer.continue.continue", nil))
	b.opt(OptStop, acp.PermissionOptionKindRejectOnce, s.t("composer.continue.stop", nil))
}

// Elicitation shows the server's message: a permission request has no form to fill in, so the
// client can only decline it.
func (b *requestBuilder) Elicitation(p decision.ElicitationPayload) {
	b.req.ToolCall.Title = acp.Ptr(p.Message)
	b.req.ToolCall.Kind = acp.Ptr(acp.ToolKindThink)
	b.opt(OptDecline, acp.PermissionOptionKindRejectOnce, b.s.t("acp.permission.decline", nil))
}

// The options that allow, by what they answer; any other option refuses.
var (
	approvalChoices = map[string]decision.Choice{OptAllowOnce: decision.AllowOnce, OptAllowSession: decision.AllowSession,
		OptAllowAlways: decision.AllowAlways}
	samplingChoices = map[string]decision.SamplingChoice{OptAllowOnce: decision.SampleOnce, OptAllowSession: decision.SampleServer}
)

// resolution maps the chosen option onto the decision's answer; reason is the client's, for a
// rejection or "keep planning".
func resolution(d decision.Decision, option, reason string) decision.Resolution {
	switch d.Kind {
	case decision.KindApproval:
		if c, ok := approvalChoices[option]; ok {
			return decision.Approval(c, "")
		}
		return decision.Approval(decision.Reject, reason)
	case decision.KindPlanReview:
		if option == OptApprovePlan {
			return decision.Plan(decision.ApprovePlan, "")
		}
		return decision.Plan(decision.KeepPlanning, reason)
	case decision.KindSampling:
		if c, ok := samplingChoices[option]; ok {
			return decision.Sampling(c, "")
		}
		return decision.Sampling(decision.SampleDeny, reason)
	case decision.KindElicitation:
		return decision.Resolution{Outcome: decision.Rejected}
	case decision.KindContinue:
		if option == OptContinue {
			return decision.Continue(decision.ContinueTurn)
		}
		return decision.Continue(decision.StopTurn)
	}
	p, err := decision.DecodeQuestion(d)
	if err != nil {
		return decision.Resolution{Outcome: decision.Rejected, Reason: err.Error()}
	}
	if i, err := strconv.Atoi(strings.TrimPrefix(option, optChoice)); err == nil && strings.HasPrefix(option, optChoice) && i >= 0 && i < len(p.Options) {
		return decision.Answer([]string{p.Options[i]}, "")
	}
	return decision.Resolution{Outcome: decision.Rejected}
}

// callOf shows the call an approval is about the way its tool_call showed it: the same short
// title, the full summary as content. An external agent's call keeps its own summary.
func (s *Server) callOf(callID string, p decision.ApprovalPayload, sessionID string) shown {
	s.mu.Lock()
	call, ok := s.calls[callID]
	s.mu.Unlock()
	d := shown{title: clipTitle(firstOf(p.Tool, p.Summary)), summary: p.Summary}
	w := s.whereOf(sessionID)
	switch {
	case ok && !w.external:
		d = s.describe(call.Name, call.Input, w).withChange(p.Change)
	case !w.external && p.Path != "" && p.Change != nil && p.Change.Omitted == "" &&
		(p.Tool == string(mode.ToolWrite) || p.Tool == string(mode.ToolEdit)):
		// A decision asked again after a restart, its call no longer seen: the payload's own
		// preview, at the path the gate resolved, is the change.
		d.diff = &acp.ToolCallContentDiff{Path: p.Path, Type: "diff"}
		d = d.withChange(p.Change)
	}
	if p.Summary != "" {
		d.summary = p.Summary
	}
	if d.summary != "" && p.Diff != "" && p.Diff != d.summary {
		d.summary += "\n\n" + p.Diff
	}
	return d
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// samplingText is a sampling request's prompt as the editor shows it: the model, the system
// prompt and every message, each with its role.
func samplingText(p decision.SamplingPayload) string {
	var b strings.Builder
	fmt.Fprintf(&b, "model: %s · max %d tokens\n", p.Model, p.MaxTokens)
	if p.SystemPrompt != "" {
		fmt.Fprintf(&b, "\n[system]\n%s\n", p.SystemPrompt)
	}
	for _, m := range p.Messages {
		fmt.Fprintf(&b, "\n[%s]\n%s\n", m.Role, m.Text)
	}
	return b.String()
}
