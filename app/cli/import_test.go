package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// exportFile creates a session over workspace in data folder d, exports it to a file after
// edit, and deletes the session, so the file imports under its own id.
func exportFile(t *testing.T, d, workspace string, edit func(e *store.Export)) string {
	t.Helper()
	v := decodeView(t, mustRun(t, "sessions", "create", "--workspace", workspace, "--permission", "full", "--json", "--data-dir", d))
	var exp store.Export
	if err := json.Unmarshal([]byte(mustRun(t, "sessions", "export", v.ID, "--data-dir", d)), &exp); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "sessions", "delete", v.ID, "--data-dir", d)
	edit(&exp)
	body, _ := json.Marshal(exp)
	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func keep(*store.Export) {}

func listIsEmpty(t *testing.T, d string) {
	t.Helper()
	var list []session.View
	json.Unmarshal([]byte(mustRun(t, "sessions", "list", "--json", "--data-dir", d)), &list)
	if len(list) != 0 {
		t.Fatalf("a refused import left %d sessions", len(list))
	}
}

func TestImportNarrowsFullAccessAndSaysSo(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	file := exportFile(t, d, w, keep)

	var got session.Imported
	if err := json.Unmarshal([]byte(mustRun(t, "sessions", "import", file, "--json", "--data-dir", d)), &got); err != nil {
		t.Fatal(err)
	}
	want := session.Narrowed{Field: "permission_mode", From: "full", To: "ask", Reason: session.NarrowNeedsConfirmation}
	if got.PermissionMode != "ask" || len(got.Narrowed) != 1 || got.Narrowed[0] != want {
		t.Fatalf("--json: %+v", got)
	}
	if v := decodeView(t, mustRun(t, "sessions", "show", got.ID, "--json", "--data-dir", d)); v.PermissionMode != "ask" {
		t.Fatalf("stored permission %q", v.PermissionMode)
	}

	mustRun(t, "sessions", "delete", got.ID, "--data-dir", d)
	code, out, errOut := run(t, map[string]string{"LANG": "zh_CN.UTF-8"}, "sessions", "import", file, "--data-dir", d)
	if code != ExitOK || !strings.Contains(out, "完全访问需要你亲自确认") || !strings.Contains(out, "“full”") {
		t.Fatalf("the text output must say, in the person's language, what was narrowed: %d %q %q", code, out, errOut)
	}
}

func TestImportWithoutNarrowingSaysNothingMore(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	file := exportFile(t, d, w, func(e *store.Export) { e.Session.PermissionMode = "auto" })
	out := mustRun(t, "sessions", "import", file, "--data-dir", d)
	id := strings.Fields(out)[1]
	if show := mustRun(t, "sessions", "show", id, "--data-dir", d); out != show || !strings.Contains(out, "auto") {
		t.Fatalf("import printed %q, show prints %q", out, show)
	}
}

func TestImportRefusalsExit2NamingTheValueAndWriteNothing(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	missing := filepath.Join(w, "moved-away")
	cases := map[string]struct {
		edit func(e *store.Export)
		want []string
	}{
		"missing workspace":     {func(e *store.Export) { e.Session.Workspace = missing }, []string{missing}},
		"the root as workspace": {func(e *store.Export) { e.Session.Workspace = "/" }, []string{"/ is the root or a system folder"}},
		"a system folder":       {func(e *store.Export) { e.Session.Workspace = "/etc" }, []string{"/etc is the root or a system folder"}},
		"a relative workspace":  {func(e *store.Export) { e.Session.Workspace = "proj" }, []string{"proj is not a full path"}},
		"unknown event type": {func(e *store.Export) { e.Events[0].Type = "shell.exec" },
			[]string{"shell.exec", "events[0].type", strings.Join(store.EventTypes, ", ")}},
		"unknown turn status": {func(e *store.Export) {
			e.Turns = []store.Turn{{ID: "t1", Status: "paused", InteractionMode: "smart", ExecutionMode: "analyze"}}
		},
			[]string{"paused", "turns[0].status", strings.Join(store.TurnStatuses, ", ")}},
	}
	for name, c := range cases {
		file := exportFile(t, d, w, c.edit)
		code, out, errOut := run(t, nil, "sessions", "import", file, "--data-dir", d)
		if code != ExitUsage || out != "" {
			t.Errorf("%s: exit %d, stdout %q", name, code, out)
		}
		for _, s := range c.want {
			if !strings.Contains(errOut, s) {
				t.Errorf("%s: stderr %q lacks %q", name, errOut, s)
			}
		}
		listIsEmpty(t, d)
	}
}

// The home folder needs the person's word on every path in: a file cannot give it, the person
// importing it can, and `sessions create` asks for the same flag.
func TestTheHomeFolderNeedsConfirmHome(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	file := exportFile(t, d, w, func(e *store.Export) { e.Session.Workspace = home })
	code, out, errOut := run(t, nil, "sessions", "import", file, "--data-dir", d)
	if code != ExitUsage || out != "" || !strings.Contains(errOut, "~/.ssh") || !strings.Contains(errOut, "--confirm-home") {
		t.Fatalf("home without --confirm-home: exit %d, %q %q", code, out, errOut)
	}
	listIsEmpty(t, d)
	var got session.Imported
	if err := json.Unmarshal([]byte(mustRun(t, "sessions", "import", file, "--confirm-home", "--json", "--data-dir", d)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Workspace != home {
		t.Fatalf("imported workspace %q, want %q", got.Workspace, home)
	}
	if code, _, errOut := run(t, nil, "sessions", "create", "--workspace", "~", "--data-dir", d); code != ExitUsage || !strings.Contains(errOut, "--confirm-home") {
		t.Fatalf("create over ~: exit %d, %q", code, errOut)
	}
	v := decodeView(t, mustRun(t, "sessions", "create", "--workspace", "~", "--confirm-home", "--json", "--data-dir", d))
	if v.Workspace != home {
		t.Fatalf("created workspace %q, want %q", v.Workspace, home)
	}
	if code, _, errOut := run(t, nil, "sessions", "create", "--workspace", "/", "--data-dir", d); code != ExitUsage || !strings.Contains(errOut, "system folder") {
		t.Fatalf("create over /: exit %d, %q", code, errOut)
	}
}
