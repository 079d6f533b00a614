package cli

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := run(t, nil, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return out
}

func decodeView(t *testing.T, out string) session.View {
	t.Helper()
	var v session.View
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return v
}

// R-AUTH: default ask; a session created with --permission full keeps it; the next session
// without a permission is ask again; the default never moved.
func TestAuthorityOfTheDefault(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	if got := mustRun(t, "settings", "get", "default-permission", "--data-dir", d); got != "ask\n" {
		t.Fatalf("fresh default: %q", got)
	}
	full := decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--permission", "full", "--json", "--data-dir", d))
	plain := decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--json", "--data-dir", d))
	if full.PermissionMode != "full" || plain.PermissionMode != "ask" {
		t.Fatalf("full=%q plain=%q", full.PermissionMode, plain.PermissionMode)
	}
	if got := mustRun(t, "settings", "get", "default-permission", "--data-dir", d); got != "ask\n" {
		t.Fatalf("the default moved: %q", got)
	}
	mustRun(t, "settings", "set", "default-permission", "auto", "--data-dir", d)
	if v := decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--json", "--data-dir", d)); v.PermissionMode != "auto" {
		t.Fatalf("after set auto: %q", v.PermissionMode)
	}
	if v := decodeView(t, mustRun(t, "sessions", "show", full.ID, "--json", "--data-dir", d)); v.PermissionMode != "full" {
		t.Fatalf("an existing session changed with the default: %q", v.PermissionMode)
	}
}

func TestRetiredAndUnknownValuesExit2AndChangeNothing(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	for _, args := range [][]string{
		{"settings", "set", "default-permission", "bypass"},
		{"settings", "set", "default-permission", "yolo"},
		{"settings", "set", "no-such-key", "x"},
		{"sessions", "create", "--workspace", w, "--permission", "acceptEdits"},
		{"sessions", "create", "--workspace", w, "--mode", "turbo"},
		{"sessions", "create", "--workspace", w, "--mode", "chat", "--override", "plan"},
		{"sessions", "create", "--workspace", w, "--override", "agent"},
		{"sessions", "show"},
		{"sessions", "show", "no-such-id"},
	} {
		code, _, errOut := run(t, nil, append(args, "--data-dir", d)...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
		if strings.Contains(strings.Join(args, " "), "permission") && !strings.Contains(errOut, "ask, auto, full") {
			t.Errorf("%v: the message must list the allowed values: %s", args, errOut)
		}
	}
	if got := mustRun(t, "settings", "get", "default-permission", "--data-dir", d); got != "ask\n" {
		t.Fatalf("a refused set changed the default: %q", got)
	}
	if got := mustRun(t, "sessions", "list", "--json", "--data-dir", d); strings.TrimSpace(got) != "[]" {
		t.Fatalf("a refused create made a session: %s", got)
	}
}

func TestLegacyModeAliasesStayAcceptedByTheCLI(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	v := decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--mode", "read-only", "--json", "--data-dir", d))
	if v.InteractionMode != "smart" || v.ExecutionOverride != "analyze" {
		t.Fatalf("read-only alias: %+v", v)
	}
}

func TestShowReportsAnUnrecognizedStoredMode(t *testing.T) {
	d := t.TempDir()
	mustRun(t, "doctor", "--json", "--data-dir", d)
	db, _ := sql.Open("sqlite", filepath.Join(d, store.FileName))
	db.Exec(`INSERT INTO sessions (id, title, workspace, interaction_mode, execution_override, permission_mode, created_at, updated_at)
		VALUES ('legacy', 'old', '/w', 'turbo', '', 'execute', '2025-01-01', '2025-01-01')`)
	db.Close()
	out := mustRun(t, "sessions", "show", "legacy", "--json", "--data-dir", d)
	v := decodeView(t, out)
	if v.InteractionMode != "smart" || v.ExecutionOverride != "analyze" || v.UnrecognizedMode != "turbo" || v.PermissionMode != "ask" {
		t.Fatalf("legacy show: %s", out)
	}
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	if raw["unrecognized_mode"] != "turbo" {
		t.Fatalf("unrecognized_mode must be reported: %s", out)
	}
}

func TestDoctorReportsWhatMaintenanceChanged(t *testing.T) {
	d := t.TempDir()
	mustRun(t, "doctor", "--json", "--data-dir", d)
	db, _ := sql.Open("sqlite", filepath.Join(d, store.FileName))
	db.Exec(`INSERT INTO sessions (id, title, workspace, interaction_mode, execution_override, permission_mode, created_at, updated_at)
		VALUES ('legacy', 'old', '/w', 'agent', '', 'bypass', '2025-01-01', '2025-01-01')`)
	db.Close()
	var rep DoctorReport
	json.Unmarshal([]byte(mustRun(t, "doctor", "--json", "--data-dir", d)), &rep)
	if rep.Maintenance.Changed != 2 {
		t.Fatalf("first open: %+v", rep.Maintenance)
	}
	json.Unmarshal([]byte(mustRun(t, "doctor", "--json", "--data-dir", d)), &rep)
	if rep.Maintenance.Changed != 0 {
		t.Fatalf("second open: %+v", rep.Maintenance)
	}
}

func TestExportImportForkAndDelete(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	v := decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--override", "plan", "--json", "--data-dir", d))
	fork := decodeView(t, mustRun(t, "sessions", "fork", v.ID, "--json", "--data-dir", d))
	if fork.ID == v.ID || fork.ExecutionOverride != "plan" {
		t.Fatalf("fork: %+v", fork)
	}
	exported := mustRun(t, "sessions", "export", v.ID, "--data-dir", d)
	file := filepath.Join(t.TempDir(), "s.json")

	legacy := strings.Replace(exported, `"permission_mode": "ask"`, `"permission_mode": "bypass"`, 1)
	os.WriteFile(file, []byte(legacy), 0o600)
	if code, _, _ := run(t, nil, "sessions", "import", file, "--data-dir", d); code != ExitUsage {
		t.Fatalf("importing over an existing id: %d", code)
	}
	mustRun(t, "sessions", "delete", v.ID, "--data-dir", d)
	back := decodeView(t, mustRun(t, "sessions", "import", file, "--json", "--data-dir", d))
	if back.ID != v.ID || back.PermissionMode != "ask" || back.ExecutionOverride != "plan" {
		t.Fatalf("a file cannot grant Full access; the rest imports as exported: %+v", back)
	}

	mustRun(t, "sessions", "delete", v.ID, "--data-dir", d)
	os.WriteFile(file, []byte(strings.Replace(legacy, `"interaction_mode": "smart"`, `"interaction_mode": "yolo"`, 1)), 0o600)
	code, _, errOut := run(t, nil, "sessions", "import", file, "--data-dir", d)
	if code != ExitUsage || !strings.Contains(errOut, "yolo") {
		t.Fatalf("unknown value import: %d %s", code, errOut)
	}
	if _, _, errOut := run(t, nil, "sessions", "show", v.ID, "--data-dir", d); !strings.Contains(errOut, v.ID) {
		t.Fatal("a rejected import left a session behind")
	}
}

func TestRouteCommand(t *testing.T) {
	var v RouteView
	json.Unmarshal([]byte(mustRun(t, "route", "only propose a fix, don't change anything", "--json")), &v)
	if v.ExecutionMode != "propose" || v.Reason == "" || v.Reason == v.ReasonKey {
		t.Fatalf("route: %+v", v)
	}
}

// `sessions list` prints the most recent sessions a page at a time: --limit of them (all with
// 0), the cursor to continue with on stderr, --after continuing exactly there.
func TestSessionsListPages(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	var made []string
	for i := 0; i < 5; i++ {
		made = append([]string{decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--json", "--data-dir", d)).ID}, made...)
	}
	ids := func(out string) []string {
		t.Helper()
		var list []session.View
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
		var out2 []string
		for _, v := range list {
			out2 = append(out2, v.ID)
		}
		return out2
	}
	code, out, errOut := run(t, nil, "sessions", "list", "--json", "--limit", "2", "--data-dir", d)
	if code != 0 || strings.Join(ids(out), ",") != strings.Join(made[:2], ",") {
		t.Fatalf("first page: %d %v (%s)", code, ids(out), errOut)
	}
	_, cursor, ok := strings.Cut(strings.TrimSpace(errOut), "--after '")
	if cursor = strings.TrimSuffix(cursor, "'"); !ok || cursor == "" {
		t.Fatalf("no cursor on stderr: %q", errOut)
	}
	code, out, errOut = run(t, nil, "sessions", "list", "--json", "--limit", "2", "--after", cursor, "--data-dir", d)
	if code != 0 || strings.Join(ids(out), ",") != strings.Join(made[2:4], ",") || errOut == "" {
		t.Fatalf("second page: %d %v (%s)", code, ids(out), errOut)
	}
	code, out, errOut = run(t, nil, "sessions", "list", "--json", "--limit", "0", "--data-dir", d)
	if code != 0 || strings.Join(ids(out), ",") != strings.Join(made, ",") || errOut != "" {
		t.Fatalf("all of them: %d %v (%s)", code, ids(out), errOut)
	}
	for _, bad := range [][]string{{"--limit", "-1"}, {"--after", "nowhere"}} {
		if code, _, errOut := run(t, nil, append([]string{"sessions", "list", "--data-dir", d}, bad...)...); code == 0 || errOut == "" {
			t.Errorf("%v: exit %d %q", bad, code, errOut)
		}
	}
}
