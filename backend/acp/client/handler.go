package client

import (
	"context"
	"encoding/json"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
)

// The client side of ACP: what the agent may call on AgentDesk. The file system and terminals
// are offered (initialize says so) and go through AgentDesk's gate, file tools and sandboxed
// shell (terminal.go): where the agent's own process runs with a read-only workspace, they are
// its only way to change anything.
var _ acp.Client = (*conn)(nil)

// MetaReason is the _meta key of a permission response that carries why a call was declined:
// ACP's outcome has no reason field, and _meta is where the protocol lets one travel.
const MetaReason = "agentdesk/reason"

// ExternalAgentStartTimeout is an agent that did not finish starting within the limit set in
// Settings.
const ExternalAgentStartTimeout errs.Kind = "EXTERNAL_AGENT_START_TIMEOUT"

// NotInPrompt refuses a file-system call that comes while no prompt runs: no turn is there to
// decide it.
const NotInPrompt errs.Kind = "EXTERNAL_AGENT_NOT_IN_PROMPT"

// RequestPermission goes through AgentDesk's gate (external.Handler.Permission), with the
// request's own tool call: it carries the path, the diff and the command that the first report
// of the call often lacks. A decline's reason travels in _meta (the runtime also tells the
// agent at the start of its next prompt). A request outside a prompt is answered cancelled.
func (c *conn) RequestPermission(ctx context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	h := c.current()
	if h == nil || req.SessionId != c.sessionID() {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
	}
	p := external.Permission{Call: callOf(req.ToolCall)}
	for _, o := range req.Options {
		p.Options = append(p.Options, external.Option{ID: string(o.OptionId), Kind: string(o.Kind), Name: o.Name})
	}
	ans, err := h.Permission(ctx, p)
	if err != nil || ans.OptionID == "" {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
	}
	resp := acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(ans.OptionID))}
	if ans.Reason != "" {
		resp.Meta = map[string]any{MetaReason: ans.Reason}
	}
	return resp, nil
}

// SessionUpdate shows what the agent streams: its words, its tool calls and its mode.
func (c *conn) SessionUpdate(ctx context.Context, n acp.SessionNotification) error {
	if n.SessionId != c.sessionID() {
		return nil
	}
	u := n.Update
	switched := ""
	switch {
	case u.CurrentModeUpdate != nil:
		switched = c.followMode(string(u.CurrentModeUpdate.CurrentModeId))
	case u.ConfigOptionUpdate != nil:
		switched = c.followOptions(u.ConfigOptionUpdate.ConfigOptions)
	}
	h := c.current()
	if h == nil {
		return nil
	}
	switch {
	case u.AgentMessageChunk != nil:
		if text := blockText(u.AgentMessageChunk.Content); text != "" {
			h.Text(text)
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		h.ToolCall(callOf(acp.ToolCallUpdate{ToolCallId: tc.ToolCallId, Title: &tc.Title, Kind: &tc.Kind, Status: &tc.Status,
			RawInput: tc.RawInput, RawOutput: tc.RawOutput, Content: tc.Content, Locations: tc.Locations}))
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		h.ToolUpdate(callOf(acp.ToolCallUpdate{ToolCallId: tu.ToolCallId, Title: tu.Title, Kind: tu.Kind, Status: tu.Status,
			RawInput: tu.RawInput, RawOutput: tu.RawOutput, Content: tu.Content, Locations: tu.Locations}))
	case switched != "":
		h.ModeChanged(switched)
	}
	return nil
}

// callOf reads an ACP tool call (or update) as the runtime sees it; what it lacks stays empty.
func callOf(tu acp.ToolCallUpdate) external.ToolCall {
	c := external.ToolCall{ID: string(tu.ToolCallId), Input: raw(tu.RawInput), Output: contentText(tu.Content, tu.RawOutput)}
	if tu.Title != nil {
		c.Title = *tu.Title
	}
	if tu.Kind != nil {
		c.Kind = string(*tu.Kind)
	}
	if tu.Status != nil {
		c.Status = string(*tu.Status)
	}
	for _, l := range tu.Locations {
		c.Locations = append(c.Locations, l.Path)
	}
	for _, tc := range tu.Content {
		if d := tc.Diff; d != nil {
			c.Diffs = append(c.Diffs, external.Diff{Path: d.Path, OldText: d.OldText, NewText: d.NewText})
		}
	}
	return c
}

func raw(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// contentText is a tool call's output as text: its text blocks, else its raw output. Diffs are
// the call's change, shown with the call rather than as output.
func contentText(content []acp.ToolCallContent, rawOutput any) string {
	var parts []string
	for _, tc := range content {
		if tc.Content != nil {
			if t := blockText(tc.Content.Content); t != "" {
				parts = append(parts, t)
			}
		}
	}
	if len(parts) == 0 && rawOutput != nil {
		if s, ok := rawOutput.(string); ok {
			return s
		}
		return string(raw(rawOutput))
	}
	return strings.Join(parts, "\n")
}

func blockText(b acp.ContentBlock) string {
	switch {
	case b.Text != nil:
		return b.Text.Text
	case b.ResourceLink != nil:
		return b.ResourceLink.Uri
	}
	return ""
}

// ReadTextFile reads through AgentDesk's gate and read tool.
func (c *conn) ReadTextFile(ctx context.Context, req acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	h, err := c.inPrompt(req.SessionId)
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	line, limit := 0, 0
	if req.Line != nil {
		line = *req.Line
	}
	if req.Limit != nil {
		limit = *req.Limit
	}
	text, err := h.ReadTextFile(ctx, req.Path, line, limit)
	if err != nil {
		return acp.ReadTextFileResponse{}, c.refusal(err)
	}
	return acp.ReadTextFileResponse{Content: text}, nil
}

// WriteTextFile writes through AgentDesk's gate and write tool.
func (c *conn) WriteTextFile(ctx context.Context, req acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	h, err := c.inPrompt(req.SessionId)
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	if err := h.WriteTextFile(ctx, req.Path, req.Content); err != nil {
		return acp.WriteTextFileResponse{}, c.refusal(err)
	}
	return acp.WriteTextFileResponse{}, nil
}

func (c *conn) inPrompt(session acp.SessionId) (external.Handler, error) {
	h := c.current()
	if h == nil || session != c.sessionID() {
		return nil, &acp.RequestError{Code: -32603, Message: string(NotInPrompt) + ": no AgentDesk turn is running to decide this call"}
	}
	return h, nil
}

// refusal is the JSON-RPC error an agent gets for a declined or failed file-system call: the
// kind and the English reason, as a model reads them.
func (c *conn) refusal(err error) error {
	e := errs.As(err)
	msg := string(e.Kind)
	if reason, ok := e.Args["Reason"].(string); ok && reason != "" {
		msg = reason
	}
	return &acp.RequestError{Code: -32603, Message: msg, Data: map[string]any{"kind": string(e.Kind)}}
}
