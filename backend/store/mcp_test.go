package store

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

func TestMCPServersAndPins(t *testing.T) {
	s, _ := openTemp(t)
	srv, err := s.AddMCPServer(MCPServer{Name: "notes", Transport: "stdio", Command: "/bin/notes", Args: []string{"--x"},
		Env: map[string]string{"A": "${A}"}, Source: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddMCPServer(MCPServer{Name: "notes", Transport: "http", URL: "http://127.0.0.1:1/"}); errs.KindOf(err) != errs.AlreadyExists {
		t.Fatalf("a second global server of the same name: %v", err)
	}
	if _, err := s.AddMCPServer(MCPServer{Name: "notes", Workspace: "/ws", Transport: "stdio", Command: "x"}); err != nil {
		t.Fatalf("the same name in a workspace is another server: %v", err)
	}
	got, err := s.FindMCPServer("", "notes")
	if err != nil || got.ID != srv.ID || got.Args[0] != "--x" || got.Env["A"] != "${A}" || got.Enabled {
		t.Fatalf("found %+v, %v", got, err)
	}
	if err := s.EnableMCPServer(srv.ID, map[string]string{"echo": `{"d":1}`, "gone": `{"d":2}`}); err != nil {
		t.Fatal(err)
	}
	if err := s.EnableMCPServer(srv.ID, map[string]string{"echo": `{"d":1}`}); err != nil {
		t.Fatal(err)
	}
	tools, _ := s.MCPTools(srv.ID)
	if len(tools) != 1 || tools[0].Pinned != `{"d":1}` || tools[0].Seen != tools[0].Pinned || tools[0].ApprovedAt == nil {
		t.Fatalf("a second enable pins what it saw, no more: %+v", tools)
	}
	tools, err = s.SeeMCPTools(srv.ID, map[string]string{"echo": `{"d":9}`, "fresh": `{"d":3}`})
	if err != nil || len(tools) != 2 {
		t.Fatalf("seen: %+v, %v", tools, err)
	}
	if tools[0].Name != "echo" || tools[0].Pinned != `{"d":1}` || tools[0].Seen != `{"d":9}` {
		t.Fatalf("a changed tool keeps its pin: %+v", tools[0])
	}
	if tools[1].Name != "fresh" || tools[1].Pinned != "" {
		t.Fatalf("a new tool is not approved: %+v", tools[1])
	}
	if err := s.ApproveMCPTool(srv.ID, "echo", `{"d":8}`); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("approving a definition the server no longer lists: %v", err)
	}
	if err := s.ApproveMCPTool(srv.ID, "echo", `{"d":9}`); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMCPToolDisabled(srv.ID, "fresh", true); err != nil {
		t.Fatal(err)
	}
	tools, _ = s.MCPTools(srv.ID)
	if tools[0].Pinned != `{"d":9}` || !tools[1].Disabled {
		t.Fatalf("after approve and disable: %+v", tools)
	}
	if err := s.ApproveMCPTool(srv.ID, "nope", `{}`); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("approving an unknown tool: %v", err)
	}
	if err := s.DisableMCPServer(srv.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMCPServer(srv.ID); err != nil {
		t.Fatal(err)
	}
	if tools, _ := s.MCPTools(srv.ID); len(tools) != 0 {
		t.Fatalf("pins go with their server: %+v", tools)
	}
	if err := s.DeleteMCPServer(srv.ID); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("deleting twice: %v", err)
	}
}

func TestMCPRulesAndGrants(t *testing.T) {
	s, _ := openTemp(t)
	sess := newSession(t, s, "mcp").ID
	r, err := s.AddRule(policy.Rule{Effect: policy.Deny, Kind: policy.KindMCP, MCP: " github/* "}, "settings")
	if err != nil || r.MCP != "github/*" {
		t.Fatalf("rule %+v, %v", r, err)
	}
	if err := s.AddGrant(sess, policy.Grant{Kind: policy.KindMCP, MCP: "github/search"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddGrant(sess, policy.Grant{Kind: policy.KindMCP, MCP: "github/search"}); err != nil {
		t.Fatal(err)
	}
	grants, _ := s.Grants(sess)
	if len(grants) != 1 || grants[0].MCP != "github/search" || grants[0].Kind != policy.KindMCP {
		t.Fatalf("grants %+v", grants)
	}
	rules, _ := s.PolicyRules()
	if rules[0].MCP != "github/*" {
		t.Fatalf("policy rules %+v", rules)
	}
	for name, bad := range map[string]policy.Rule{
		"an MCP pattern on bash":          {Effect: policy.Allow, Kind: policy.KindBash, MCP: "a/b"},
		"an MCP pattern and a path":       {Effect: policy.Deny, MCP: "a/b", Path: "x"},
		"an MCP pattern without a server": {Effect: policy.Deny, MCP: "/b"},
		"a prefix scope on MCP":           {Effect: policy.Allow, Kind: policy.KindMCP, MCP: "a/b", Scope: policy.ScopePrefix},
	} {
		if _, err := s.AddRule(bad, "settings"); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("%s: %v", name, err)
		}
	}
}
