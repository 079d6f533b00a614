package app

import (
	"context"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/mcp"
	"agentdesk/backend/policy"
)

// MCP is the Settings page's facade for MCP servers: add, enable, disable, remove, approve a
// changed tool, import a workspace's .mcp.json once the person confirmed, and MCP rules.
type MCP struct{ s *Services }

// MCPListRequest names the workspace whose servers to list; empty lists every server.
type MCPListRequest struct {
	Workspace string `json:"workspace"`
}

// MCPServerRef names one server.
type MCPServerRef struct {
	ID string `json:"id"`
}

// MCPApproveRequest approves the listed definition the person reviewed (Seen) for one tool.
type MCPApproveRequest struct {
	ID   string `json:"id"`
	Tool string `json:"tool"`
	Seen string `json:"seen"`
}

// MCPToolRequest switches one tool off, or back on.
type MCPToolRequest struct {
	ID   string `json:"id"`
	Tool string `json:"tool"`
	Off  bool   `json:"off"`
}

// MCPImportRequest imports the servers the person confirmed from a workspace's .mcp.json.
type MCPImportRequest struct {
	Workspace string   `json:"workspace"`
	Names     []string `json:"names"`
}

// MCPImportView is what became of one imported server.
type MCPImportView struct {
	Name   string          `json:"name"`
	Server *mcp.ServerView `json:"server,omitempty"`
	Error  *Failure        `json:"error,omitempty"`
}

// MCPRuleRequest adds an always-allow or deny rule on an MCP tool or server: "mcp:server/tool",
// "mcp:server/*" (every tool of the server) or a pattern such as "mcp:*/delete_*" (deny only).
type MCPRuleRequest struct {
	Effect string `json:"effect"`
	Rule   string `json:"rule"`
}

// List shows the servers with their status and tools.
func (f *MCP) List(req MCPListRequest) ([]mcp.ServerView, error) {
	out, err := f.s.MCP.List(req.Workspace)
	return out, f.s.fail(err)
}

// Add stores a server, switched off, and starts it once to list its tools for the person to
// review: none is pinned or offered until they enable the server with the tools they saw. A
// server that cannot start stays in the list, switched off, and the error says why.
func (f *MCP) Add(req mcp.Config) (mcp.ServerView, error) {
	v, err := f.s.MCP.Add(req, "settings")
	if err != nil {
		return mcp.ServerView{}, f.s.fail(err)
	}
	v, err = f.s.MCP.Review(context.Background(), v.ID, "")
	return v, f.s.fail(err)
}

// MCPEditRequest replaces what a server runs; its name, scope and transport stay.
type MCPEditRequest struct {
	ID     string     `json:"id"`
	Config mcp.Config `json:"config"`
}

// Edit fixes a server's command (or URL) in place: the server is switched off and started once
// to list its tools for review, as when it was added.
func (f *MCP) Edit(req MCPEditRequest) (mcp.ServerView, error) {
	v, err := f.s.MCP.Edit(context.Background(), req.ID, req.Config)
	return v, f.s.fail(err)
}

// MCPEnableRequest switches a server on. Tools, when given, are the tools the person reviewed,
// each with the definition they saw (ToolView.Seen): only those are pinned, and a tool the
// server now lists differently waits for its own approval. Without Tools every listed tool is
// pinned as it is now.
type MCPEnableRequest struct {
	ID    string            `json:"id"`
	Tools map[string]string `json:"tools,omitempty"`
}

// Enable switches a server on and pins its tools as the person's approval.
func (f *MCP) Enable(req MCPEnableRequest) (mcp.ServerView, error) {
	v, err := f.s.MCP.EnableReviewed(context.Background(), req.ID, "", req.Tools)
	return v, f.s.fail(err)
}

// Disable switches a server off and stops it.
func (f *MCP) Disable(req MCPServerRef) (mcp.ServerView, error) {
	v, err := f.s.MCP.Disable(req.ID)
	return v, f.s.fail(err)
}

// Log shows the end of a server's log: what it wrote to its standard error, run by run.
func (f *MCP) Log(req MCPServerRef) (mcp.LogView, error) {
	v, err := f.s.MCP.ReadLog(req.ID)
	return v, f.s.fail(err)
}

// Remove deletes a server and its pins.
func (f *MCP) Remove(req MCPServerRef) error {
	return f.s.fail(f.s.MCP.Remove(req.ID))
}

// Approve pins a changed or new tool's listed definition, exactly the one the person reviewed.
func (f *MCP) Approve(req MCPApproveRequest) (mcp.ServerView, error) {
	v, err := f.s.MCP.Approve(req.ID, req.Tool, req.Seen)
	return v, f.s.fail(err)
}

// SetToolOff switches one tool off or on.
func (f *MCP) SetToolOff(req MCPToolRequest) (mcp.ServerView, error) {
	v, err := f.s.MCP.SetToolOff(req.ID, req.Tool, req.Off)
	return v, f.s.fail(err)
}

// Preview reads a workspace's .mcp.json without starting anything, for the person to review.
func (f *MCP) Preview(req MCPListRequest) ([]mcp.ImportItem, error) {
	out, err := f.s.MCP.Preview(req.Workspace)
	return out, f.s.fail(err)
}

// Import adds and enables the servers the person confirmed from the workspace's .mcp.json.
func (f *MCP) Import(req MCPImportRequest) ([]MCPImportView, error) {
	res, err := f.s.MCP.Import(context.Background(), req.Workspace, req.Names)
	if err != nil {
		return nil, f.s.fail(err)
	}
	out := make([]MCPImportView, len(res))
	for i, r := range res {
		out[i] = MCPImportView{Name: r.Name, Server: r.Server}
		if r.Error != nil {
			out[i].Error = f.s.fail(r.Error).(*Failure)
		}
	}
	return out, nil
}

// AddRule adds a rule on MCP tools; it is listed with the other rules in Settings.
func (f *MCP) AddRule(req MCPRuleRequest) ([]RuleView, error) {
	r, err := MCPRule(req.Effect, req.Rule)
	if err != nil {
		return nil, f.s.fail(err)
	}
	if _, err := f.s.Store.AddRule(r, "settings"); err != nil {
		return nil, f.s.fail(err)
	}
	rules, err := (&Settings{f.s}).Rules()
	if err == nil {
		f.s.Bus.Publish(EventRulesChanged, rules)
	}
	return rules, err
}

// MCPRule reads a person's MCP rule: an allow rule is the one tool unless it names a pattern
// (server/*, a "*" anywhere), which the person typed and so is saved as a pattern.
func MCPRule(effect, spec string) (policy.Rule, error) {
	pattern, ok := policy.ParseMCPRule(spec)
	if !ok {
		return policy.Rule{}, errs.Invalid("rule", spec, []string{"mcp:server/tool", "mcp:server/*", "mcp:server"})
	}
	r := policy.Rule{Effect: policy.Effect(effect), Kind: policy.KindMCP, MCP: pattern, Scope: policy.ScopeExact}
	if r.Effect == policy.Allow && (strings.Contains(pattern, "*") || !strings.Contains(pattern, "/")) {
		r.Scope = policy.ScopePattern
	}
	if r.Effect != policy.Allow && r.Effect != policy.Deny {
		return policy.Rule{}, errs.Invalid("effect", effect, []string{string(policy.Allow), string(policy.Deny)})
	}
	return r, nil
}
