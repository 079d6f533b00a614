package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/mcp"
	"agentdesk/backend/mcp/mcptest"
)

func TestMCPCommands(t *testing.T) {
	fixture, err := mcptest.BuildFixture(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mcpRun := func(args ...string) (int, string, string) {
		head, command := splitCommand(args)
		all := append([]string{"mcp"}, head...)
		all = append(all, "--data-dir", dir)
		if command != nil {
			all = append(append(all, "--"), command...)
		}
		return run(t, nil, all...)
	}
	code, out, errOut := mcpRun("add", "notes", "--json", "--", fixture, "--label", "x")
	var added mcp.ServerView
	if err := json.Unmarshal([]byte(out), &added); code != 0 || err != nil {
		t.Fatalf("add: %d %v\n%s\n%s", code, err, out, errOut)
	}
	if !added.Enabled || added.Command != fixture || added.Args[1] != "x" || len(added.Tools) != 9 || added.Tools[0].State != mcp.Approved {
		t.Fatalf("added: %+v", added)
	}
	if code, _, errOut := mcpRun("add", "notes", "--", fixture); code != ExitUsage || !strings.Contains(errOut, "notes") {
		t.Fatalf("a second server of the same name: %d %s", code, errOut)
	}
	if code, _, errOut := mcpRun("add", "bad/name", "--", fixture); code != ExitUsage || !strings.Contains(errOut, "bad/name") {
		t.Fatalf("a bad name: %d %s", code, errOut)
	}
	if code, _, errOut := mcpRun("add", "remote", "--url", "http://127.0.0.1:1/mcp"); code != ExitFailure || !strings.Contains(errOut, "MCP") {
		t.Fatalf("an unreachable server: %d %s", code, errOut)
	}
	code, out, _ = mcpRun("list")
	if code != 0 || !strings.Contains(out, "notes") || !strings.Contains(out, "every workspace") || !strings.Contains(out, "9 approved") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	if !strings.Contains(out, "remote") || !strings.Contains(out, "off") {
		t.Fatalf("the unreachable server stays listed, off:\n%s", out)
	}
	if code, _, errOut := mcpRun("disable", "notes"); code != 0 {
		t.Fatalf("disable: %d %s", code, errOut)
	}
	if code, out, errOut := mcpRun("enable", "notes"); code != 0 || !strings.Contains(out, "9 tools are pinned") {
		t.Fatalf("enable: %d %s %s", code, out, errOut)
	}
	code, out, _ = mcpRun("deny", "mcp:notes/write_note", "--json")
	if code != 0 || !strings.Contains(out, `"MCP": "notes/write_note"`) {
		t.Fatalf("deny: %d %s", code, out)
	}
	if code, _, errOut := mcpRun("allow", "nothing/"); code != ExitUsage || !strings.Contains(errOut, "mcp:server/tool") {
		t.Fatalf("a bad rule: %d %s", code, errOut)
	}
	if code, _, _ := mcpRun("remove", "notes"); code != 0 {
		t.Fatalf("remove: %d", code)
	}
	if code, _, _ := mcpRun("remove", "notes"); code != ExitUsage {
		t.Fatalf("removing twice: %d", code)
	}
}

// A workspace's .mcp.json is imported only once the person confirms: without a terminal that
// takes --yes.
func TestMCPImportNeedsConfirmation(t *testing.T) {
	fixture, err := mcptest.BuildFixture(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, ws := t.TempDir(), t.TempDir()
	body := `{"mcpServers":{"notes":{"command":"` + fixture + `"},"old":{"type":"sse","url":"http://x/sse"}}}`
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, nil, "mcp", "import", "--data-dir", dir, "--workspace", ws)
	if code == 0 || !strings.Contains(errOut, "MCP") || !strings.Contains(errOut, "notes (stdio)") || !strings.Contains(errOut, "old: not imported") {
		t.Fatalf("an unconfirmed import: %d\n%s", code, errOut)
	}
	if _, out, _ := run(t, nil, "mcp", "list", "--json", "--data-dir", dir); strings.TrimSpace(out) != "[]" {
		t.Fatalf("an unconfirmed import added servers: %s", out)
	}
	code, out, errOut := run(t, nil, "mcp", "import", "--yes", "--json", "--data-dir", dir, "--workspace", ws)
	var servers []mcp.ServerView
	if err := json.Unmarshal([]byte(out), &servers); code != 0 || err != nil || len(servers) != 1 || servers[0].Workspace != ws || !servers[0].Enabled {
		t.Fatalf("a confirmed import: %d %v\n%s\n%s", code, err, out, errOut)
	}
	if _, out, _ := run(t, map[string]string{"LANG": "zh_CN.UTF-8"}, "mcp", "list", "--data-dir", dir, "--workspace", ws); !strings.Contains(out, "个已批准") {
		t.Fatalf("zh-CN list: %s", out)
	}
}
