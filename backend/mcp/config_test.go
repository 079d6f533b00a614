package mcp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
)

func TestConfigValidation(t *testing.T) {
	good := []Config{
		{Name: "notes", Transport: Stdio, Command: "notes-server", Env: map[string]string{"A_1": "x"}},
		{Name: "Git-Hub_2", Transport: HTTP, URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
		{Name: "ws", Workspace: "/home/u/project", Transport: Stdio, Command: "x", Network: true},
	}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	bad := map[string]Config{
		"a name with a slash":     {Name: "a/b", Transport: Stdio, Command: "x"},
		"a name with a space":     {Name: "a b", Transport: Stdio, Command: "x"},
		"an empty name":           {Transport: Stdio, Command: "x"},
		"an unknown transport":    {Name: "a", Transport: "sse", URL: "http://x"},
		"stdio without a command": {Name: "a", Transport: Stdio},
		"stdio with a URL":        {Name: "a", Transport: Stdio, Command: "x", URL: "http://x"},
		"a bad variable name":     {Name: "a", Transport: Stdio, Command: "x", Env: map[string]string{"A-B": "x"}},
		"http without a URL":      {Name: "a", Transport: HTTP},
		"http with a file URL":    {Name: "a", Transport: HTTP, URL: "file:///x"},
		"http with a command":     {Name: "a", Transport: HTTP, URL: "http://x", Command: "y"},
		"http with network":       {Name: "a", Transport: HTTP, URL: "http://x", Network: true},
		"a bad header":            {Name: "a", Transport: HTTP, URL: "http://x", Headers: map[string]string{"A B": "x"}},
		"a relative workspace":    {Name: "a", Workspace: "proj", Transport: Stdio, Command: "x"},
		"an unclean workspace":    {Name: "a", Workspace: "/a/../b", Transport: Stdio, Command: "x"},
	}
	for name, c := range bad {
		if k := errs.KindOf(c.Validate()); k != errs.InvalidValue && k != errs.MissingArgument {
			t.Errorf("%s: %v", name, c.Validate())
		}
	}
}

func TestExpandVars(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "EMPTY": ""}
	get := func(k string) string { return env[k] }
	for in, want := range map[string]string{
		"Bearer ${TOKEN}": "Bearer t0k", "${MISSING:-dflt}": "dflt", "${EMPTY:-d}": "d", "plain": "plain",
		"a${TOKEN}b${TOKEN}": "at0kbt0k", "${unterminated": "${unterminated",
	} {
		if got, err := expandVars(in, get); err != nil || got != want {
			t.Errorf("expandVars(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := expandVars("${MISSING}", get); errs.KindOf(err) != errs.MissingArgument {
		t.Errorf("a missing variable: %v", err)
	}
}

func TestModelNames(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	seen := map[string]bool{}
	for _, tool := range []string{"echo", "a.b", "a_b", "repos/delete", strings.Repeat("x", 80), strings.Repeat("x", 81), "日本"} {
		n := ModelName("server", tool)
		if !valid.MatchString(n) {
			t.Errorf("ModelName(server, %q) = %q is not a valid provider tool name", tool, n)
		}
		if seen[n] {
			t.Errorf("ModelName(server, %q) = %q collides", tool, n)
		}
		seen[n] = true
	}
	if ModelName("github", "create_issue") != "mcp__github__create_issue" {
		t.Errorf("a plain name: %s", ModelName("github", "create_issue"))
	}
}

func TestImportFilePreview(t *testing.T) {
	th := newTestHost(t)
	ws := th.workspace
	if items, err := th.Preview(ws); err != nil || len(items) != 0 {
		t.Fatalf("no file: %+v, %v", items, err)
	}
	body := `{"mcpServers": {
		"notes": {"command": "` + fixture + `", "args": ["--label", "x"], "env": {"K": "${K:-v}"}},
		"remote": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${T}"}},
		"old": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
		"bad name": {"command": "x"},
		"typo": {"comand": "x"}
	}}`
	if err := os.WriteFile(filepath.Join(ws, ImportFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	items, err := th.Preview(ws)
	if err != nil || len(items) != 5 {
		t.Fatalf("preview: %+v, %v", items, err)
	}
	byName := map[string]ImportItem{}
	for _, it := range items {
		byName[it.Config.Name] = it
	}
	if n := byName["notes"]; n.Problem != "" || n.Config.Workspace != ws || n.Config.Args[1] != "x" || n.Config.Network {
		t.Errorf("notes: %+v", n)
	}
	if r := byName["remote"]; r.Problem != "" || r.Config.Transport != HTTP || r.Config.Headers["Authorization"] != "Bearer ${T}" {
		t.Errorf("remote: %+v", r)
	}
	for _, n := range []string{"old", "bad name", "typo"} {
		if byName[n].Problem == "" {
			t.Errorf("%s should not import: %+v", n, byName[n])
		}
	}
	if list, _ := th.List(ws); len(list) != 0 {
		t.Fatal("a preview added servers")
	}
	if _, err := th.Import(t.Context(), ws, nil); errs.KindOf(err) != ImportNotConfirmed {
		t.Fatalf("an unconfirmed import: %v", err)
	}
	res, err := th.Import(t.Context(), ws, []string{"notes", "old"})
	if err != nil || len(res) != 2 || res[0].Error != nil || res[0].Server == nil || !res[0].Server.Enabled || res[1].Error == nil {
		t.Fatalf("import: %+v, %v", res, err)
	}
	if items, _ := th.Preview(ws); !items[1].Exists || items[1].Config.Name != "notes" {
		t.Fatalf("preview after import: %+v", items)
	}
}

func TestEveryKindHasAMessage(t *testing.T) {
	var want []string
	for _, k := range Kinds {
		want = append(want, "error."+string(k))
	}
	for _, m := range i18n.Missing(want...) {
		t.Errorf("no message for %s", m)
	}
}
