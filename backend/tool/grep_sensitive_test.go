package tool

import (
	"strings"
	"testing"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// TestGrepSkipsSensitiveFiles: a folder search reads no file on the sensitive list, and says
// which it skipped; a search the person approved on a sensitive folder reads it.
func TestGrepSkipsSensitiveFiles(t *testing.T) {
	ws := workspace(t, map[string]string{
		"app.go":              "token := os.Getenv(\"TOKEN\")\n",
		".env":                "TOKEN=hunter2\n",
		"web/.env.production": "TOKEN=prod\n",
		".ssh/id_ed25519":     "TOKEN private key\n",
		"certs/server.pem":    "TOKEN pem\n",
		"id_rsa.pub":          "TOKEN public\n",
	})
	res := mustRun(t, mode.ToolGrep, Env{Workspace: ws}, `{"pattern":"TOKEN"}`)
	for _, secret := range []string{"hunter2", "TOKEN=prod", "private key", "TOKEN pem"} {
		if strings.Contains(res.Output, secret) {
			t.Fatalf("grep read a sensitive file: %q", res.Output)
		}
	}
	if !strings.Contains(res.Output, "app.go:1:") || !strings.Contains(res.Output, "id_rsa.pub:1:TOKEN public") {
		t.Fatalf("grep skipped a plain file: %q", res.Output)
	}
	if !strings.Contains(res.Output, "Skipped 4 sensitive") || !strings.Contains(res.Output, ".ssh") || !strings.Contains(res.Output, "asks") {
		t.Fatalf("the skipped files are not reported: %q", res.Output)
	}
	if res.Display == nil || res.Display.Key != "tool.grep.sensitive_skipped" || res.Display.Args["Count"] != 4 {
		t.Fatalf("display: %+v", res.Display)
	}
	res = mustRun(t, mode.ToolGrep, Env{Workspace: ws, Sensitive: policy.NewSensitiveList(nil)}, `{"pattern":"hunter2"}`)
	if res.Output != ".env:1:TOKEN=hunter2" {
		t.Fatalf("with the list emptied: %q", res.Output)
	}
	res = mustRun(t, mode.ToolGrep, Env{Workspace: ws}, `{"pattern":"TOKEN","path":".ssh"}`)
	if !strings.Contains(res.Output, "private key") {
		t.Fatalf("an approved search of a sensitive folder: %q", res.Output)
	}
	res = mustRun(t, mode.ToolGrep, Env{Workspace: ws}, `{"pattern":"nothing-here"}`)
	if !strings.HasPrefix(res.Output, "No matches.\n[Skipped 4") || res.Display.Tail != 0 {
		t.Fatalf("no match: %q %+v", res.Output, res.Display)
	}
}
