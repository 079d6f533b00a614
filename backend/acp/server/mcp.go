package server

import (
	"fmt"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/mcp"
)

// MCPSessions takes the MCP servers an editor passes with a session (backend/mcp.Host).
type MCPSessions interface {
	SetSessionServers(sessionID string, cfgs []mcp.Config) []error
}

// forwardMCP hands the editor's mcpServers (stdio and http; SSE is not supported) to the host, for
// that session only. A server that cannot be used is logged, never fatal to the session.
func (s *Server) forwardMCP(sessionID string, servers []acp.McpServer) {
	if s.opts.MCP == nil {
		return
	}
	var cfgs []mcp.Config
	for _, srv := range servers {
		if cfg, ok := mcpConfig(srv); ok {
			cfgs = append(cfgs, cfg)
		} else {
			fmt.Fprintf(s.opts.Log, "acp: an MCP server of session %s uses a transport AgentDesk does not support\n", sessionID)
		}
	}
	for _, err := range s.opts.MCP.SetSessionServers(sessionID, cfgs) {
		fmt.Fprintf(s.opts.Log, "acp: MCP server of session %s: %v\n", sessionID, err)
	}
}

func mcpConfig(srv acp.McpServer) (mcp.Config, bool) {
	switch {
	case srv.Stdio != nil:
		env := map[string]string{}
		for _, e := range srv.Stdio.Env {
			env[e.Name] = e.Value
		}
		return mcp.Config{Name: srv.Stdio.Name, Transport: mcp.Stdio, Command: srv.Stdio.Command, Args: srv.Stdio.Args, Env: env}, true
	case srv.Http != nil:
		headers := map[string]string{}
		for _, h := range srv.Http.Headers {
			headers[h.Name] = h.Value
		}
		return mcp.Config{Name: srv.Http.Name, Transport: mcp.HTTP, URL: srv.Http.Url, Headers: headers}, true
	}
	return mcp.Config{}, false
}
