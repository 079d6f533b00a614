package session

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
	"agentdesk/backend/workspace"
)

// exported creates a session with a mode switch and a finished turn, exports it and deletes it,
// so the export can be imported again under its own id.
func exported(t *testing.T, svc *Service, workspace, permission string) store.Export {
	t.Helper()
	v, err := svc.Create(CreateInput{Title: "t", Workspace: workspace, Permission: &permission,
		Mode: mode.FollowUpInput{ExecutionOverride: str("debug")}})
	if err != nil {
		t.Fatal(err)
	}
	started, err := svc.Store.StartTurn(store.TurnStart{SessionID: v.ID, Prompt: "fix", Preference: v.Preference()})
	if err != nil || started.Decision.Mode != mode.ModeDebug {
		t.Fatal(started, err)
	}
	svc.Store.EndTurn(started.Turn.ID, store.TurnDone, "")
	exp, err := svc.Store.ExportSession(v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Store.DeleteSession(v.ID); err != nil {
		t.Fatal(err)
	}
	return exp
}

func encode(t *testing.T, exp store.Export) io.Reader {
	t.Helper()
	b, err := json.Marshal(exp)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}

func noSessions(t *testing.T, svc *Service) {
	t.Helper()
	if list, _ := svc.List(store.SessionRange{Limit: 10}); len(list.Sessions) != 0 {
		t.Fatalf("a refused import left %d sessions", len(list.Sessions))
	}
}

// A file cannot give the confirmation Full access needs: full in any spelling, and anything
// unknown, come in as ask and are reported; ask and auto (and their retired spellings) stay.
func TestImportNarrowsFullAccessAndUnknownPermissions(t *testing.T) {
	svc, w := newService(t)
	exp := exported(t, svc, w, "full")
	cases := []struct {
		raw, want, reason string
	}{
		{"full", "ask", NarrowNeedsConfirmation},
		{"bypassPermissions", "ask", NarrowNeedsConfirmation},
		{"sudo", "ask", NarrowUnrecognized},
		{"", "ask", NarrowUnrecognized},
		{"auto", "auto", ""},
		{"accept-edits", "auto", ""},
		{"ask", "ask", ""},
	}
	for _, c := range cases {
		exp.Session.PermissionMode = c.raw
		got, err := svc.Import(encode(t, exp), ImportOptions{})
		if err != nil {
			t.Fatalf("%q: %v", c.raw, err)
		}
		var want []Narrowed
		if c.reason != "" {
			want = []Narrowed{{Field: "permission_mode", From: c.raw, To: "ask", Reason: c.reason}}
		}
		if got.PermissionMode != c.want || got.UnrecognizedPermission != "" || len(got.Narrowed) != len(want) ||
			len(want) > 0 && got.Narrowed[0] != want[0] {
			t.Errorf("%q: permission %q, narrowed %+v", c.raw, got.PermissionMode, got.Narrowed)
		}
		svc.Store.DeleteSession(got.ID)
	}
}

func TestImportRefusesAMissingWorkspace(t *testing.T) {
	svc, w := newService(t)
	exp := exported(t, svc, w, "ask")
	missing := filepath.Join(w, "gone")
	exp.Session.Workspace = missing
	_, err := svc.Import(encode(t, exp), ImportOptions{})
	if e := errs.As(err); e.Kind != errs.NoWorkspace || e.Args["Path"] != missing {
		t.Fatalf("missing workspace: %v", err)
	}
	exp.Session.Workspace = ""
	if _, err := svc.Import(encode(t, exp), ImportOptions{}); errs.KindOf(err) != workspace.Required {
		t.Fatalf("empty workspace: %v", err)
	}
	noSessions(t, svc)
}

// An import applies the rule a new session does: a file cannot name the root, a system folder,
// a relative path or the home folder unless the person importing it confirmed the home folder.
func TestImportAppliesTheWorkspaceRule(t *testing.T) {
	svc, w := newService(t)
	exp := exported(t, svc, w, "ask")
	for raw, want := range map[string]errs.Kind{
		"/":        workspace.SystemFolder,
		"/etc":     workspace.SystemFolder,
		"/usr/lib": workspace.SystemFolder,
		".":        workspace.Relative,
		"proj":     workspace.Relative,
		"~bob":     workspace.Invalid,
	} {
		exp.Session.Workspace = raw
		if _, err := svc.Import(encode(t, exp), ImportOptions{}); errs.KindOf(err) != want {
			t.Errorf("workspace %q: %v, want %s", raw, err, want)
		}
	}
	home := workspace.Home()
	if home == "" {
		t.Fatal("no home folder to test with")
	}
	exp.Session.Workspace = home
	if _, err := svc.Import(encode(t, exp), ImportOptions{}); errs.KindOf(err) != workspace.HomeNeedsConfirmation {
		t.Errorf("home without confirmation: %v", err)
	}
	noSessions(t, svc)
	got, err := svc.Import(encode(t, exp), ImportOptions{ConfirmHome: true})
	if err != nil {
		t.Fatalf("home confirmed: %v", err)
	}
	if real, _ := filepath.EvalSymlinks(home); got.Workspace != real {
		t.Errorf("workspace %q, want %q", got.Workspace, real)
	}
}

func TestImportStoresTheResolvedWorkspace(t *testing.T) {
	svc, w := newService(t)
	real, err := filepath.EvalSymlinks(w)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(w, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	exp := exported(t, svc, w, "ask")
	exp.Session.Workspace = link + string(filepath.Separator) + "."
	got, err := svc.Import(encode(t, exp), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Workspace != real {
		t.Fatalf("workspace %q, want %q", got.Workspace, real)
	}
}

// Apart from what the import narrows, a session comes back exactly as it was exported.
func TestImportRoundTripsAnExportUnchanged(t *testing.T) {
	svc, w := newService(t)
	real, _ := filepath.EvalSymlinks(w)
	exp := exported(t, svc, real, "auto")
	got, err := svc.Import(encode(t, exp), ImportOptions{})
	if err != nil || len(got.Narrowed) != 0 {
		t.Fatalf("import: %+v %v", got, err)
	}
	again, err := svc.Store.ExportSession(got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(encode(t, again), encode(t, exp)) {
		t.Fatalf("round trip changed the session:\n%s\n%s", encode(t, exp), encode(t, again))
	}
}

// Nothing is written unless all of it is valid: a bad event after a narrowed permission and a
// resolved workspace still leaves no session.
func TestImportIsAllOrNothing(t *testing.T) {
	svc, w := newService(t)
	exp := exported(t, svc, w, "full")
	exp.Events = append(exp.Events, store.ExportedEvent{Type: "shell.exec", Payload: json.RawMessage(`{}`)})
	if _, err := svc.Import(encode(t, exp), ImportOptions{}); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("unknown event type: %v", err)
	}
	exp.Events = exp.Events[:len(exp.Events)-1]
	exp.Turns[0].Status = "paused"
	if _, err := svc.Import(encode(t, exp), ImportOptions{}); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("unknown turn status: %v", err)
	}
	noSessions(t, svc)
}

func TestNarrowReasonsHaveMessages(t *testing.T) {
	var keys []string
	for _, r := range NarrowReasons {
		keys = append(keys, Narrowed{Reason: r}.MessageKey())
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
