package mcp

import "agentdesk/backend/store"

// Store is where the MCP host keeps its servers and the tools it has seen of each: the methods
// of *store.Store it uses, and the shell's pass list it gives servers too.
type Store interface {
	AddMCPServer(srv store.MCPServer) (store.MCPServer, error)
	MCPServers() ([]store.MCPServer, error)
	FindMCPServer(workspace, name string) (store.MCPServer, error)
	MCPServerByID(id string) (store.MCPServer, error)
	DeleteMCPServer(id string) error
	EditMCPServer(srv store.MCPServer) error
	EnableMCPServer(id string, defs map[string]string) error
	DisableMCPServer(id string) error
	MCPTools(serverID string) ([]store.MCPTool, error)
	SeeMCPTools(serverID string, defs map[string]string) ([]store.MCPTool, error)
	ApproveMCPTool(serverID, name, seen string) error
	SetMCPToolDisabled(serverID, name string, disabled bool) error
	ShellPassEnv() ([]string, error)
}
