package client

import (
	"context"
	"encoding/json"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
)

// The client side of ACP: what the agent may call on AgentDesk. File system and terminal
// methods are not offered (initialize advertises neither), so the agent uses its own tools
// and asks permission for them.
var _ acp.Client = (*conn)(nil)

// RequestPermission becomes an approval decision in the registry; the person's answer goes
// back as the agent's matching option. A request outside a prompt is answered cancelled.
func (c *conn) RequestPermission(ctx context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	h := c.current()
	if h == nil || req.SessionId != c.session {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
	}
	p := agent.ExternalPermission{Call: callOf(req.ToolCall)}
	for _, o := range req.Options {
		p.Options = append(p.Options, agent.ExternalOption{ID: string(o.OptionId), Kind: string(o.Kind), Name: o.Name})
	}
	id, err := h.Permission(ctx, p)
	if err != nil || id == "" {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(id))}, nil
}

// SessionUpdate shows what the agent streams: its words, its tool calls and its mode.
func (c *conn) SessionUpdate(ctx context.Context, n acp.SessionNotification) error {
	if n.SessionId != c.session {
		return nil
	}
	u := n.Update
	if u.CurrentModeUpdate != nil {
		c.setMode(u.CurrentModeUpdate.CurrentModeId)
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
		h.ToolCall(agent.ExternalToolCall{ID: string(tc.ToolCallId), Title: tc.Title, Kind: string(tc.Kind),
			Status: string(tc.Status), Input: raw(tc.RawInput), Output: contentText(tc.Content, tc.RawOutput)})
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		h.ToolUpdate(callOf(acp.ToolCallUpdate{ToolCallId: tu.ToolCallId, Title: tu.Title, Kind: tu.Kind, Status: tu.Status,
			RawInput: tu.RawInput, RawOutput: tu.RawOutput, Content: tu.Content}))
	case u.CurrentModeUpdate != nil:
		h.ModeChanged(string(u.CurrentModeUpdate.CurrentModeId))
	}
	return nil
}

func callOf(tu acp.ToolCallUpdate) agent.ExternalToolCall {
	c := agent.ExternalToolCall{ID: string(tu.ToolCallId), Input: raw(tu.RawInput), Output: contentText(tu.Content, tu.RawOutput)}
	if tu.Title != nil {
		c.Title = *tu.Title
	}
	if tu.Kind != nil {
		c.Kind = string(*tu.Kind)
	}
	if tu.Status != nil {
		c.Status = string(*tu.Status)
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

// contentText is a tool call's output as text: its text blocks and diffs, else its raw output.
func contentText(content []acp.ToolCallContent, rawOutput any) string {
	var parts []string
	for _, tc := range content {
		switch {
		case tc.Content != nil:
			if t := blockText(tc.Content.Content); t != "" {
				parts = append(parts, t)
			}
		case tc.Diff != nil:
			parts = append(parts, "--- "+tc.Diff.Path+"\n"+tc.Diff.NewText)
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

// The agent may not use these: AgentDesk advertises no file system or terminal capability.

func (c *conn) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsReadTextFile)
}

func (c *conn) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsWriteTextFile)
}

func (c *conn) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalCreate)
}

func (c *conn) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalKill)
}

func (c *conn) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalOutput)
}

func (c *conn) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalRelease)
}

func (c *conn) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalWaitForExit)
}
