package session

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
	"agentdesk/backend/workspace"
)

func newService(t *testing.T) (*Service, string) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Service{Store: st}, t.TempDir()
}

func str(s string) *string { return &s }

func TestConfigureGoesThroughTheOneValidator(t *testing.T) {
	svc, w := newService(t)
	v, err := svc.Create(CreateInput{Title: "t", Workspace: w, Mode: mode.FollowUpInput{ExecutionOverride: str("plan")}})
	if err != nil || v.ExecutionOverride != "plan" {
		t.Fatalf("create: %+v %v", v, err)
	}
	if _, err := svc.Configure(v.ID, mode.FollowUpInput{ExecutionOverride: str("plan"), Temporary: true}); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("a temporary override must never be saved: %v", err)
	}
	chat, err := svc.Configure(v.ID, mode.FollowUpInput{InteractionMode: str("chat")})
	if err != nil || chat.InteractionMode != "chat" || chat.ExecutionOverride != "" {
		t.Fatalf("switching to chat drops the override: %+v %v", chat, err)
	}
	if _, err := svc.Configure(v.ID, mode.FollowUpInput{ExecutionOverride: str("debug")}); errs.KindOf(err) != mode.ChatWithOverride {
		t.Fatalf("an override on a chat session: %v", err)
	}
	if _, err := svc.Configure(v.ID, mode.FollowUpInput{InteractionMode: str("agent")}); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("live input is strict: %v", err)
	}
	events, _ := svc.Store.Events(v.ID)
	if len(events) != 2 {
		t.Fatalf("only accepted switches are logged: %d events", len(events))
	}
}

func TestCreateRefusesAMissingWorkspaceAndBadPermission(t *testing.T) {
	svc, w := newService(t)
	if _, err := svc.Create(CreateInput{Title: "t", Workspace: w + "/nope"}); errs.KindOf(err) != errs.NoWorkspace {
		t.Fatalf("missing workspace: %v", err)
	}
	if _, err := svc.Create(CreateInput{Title: "t", Workspace: w, Permission: str("bypass")}); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("retired permission on create: %v", err)
	}
	if v, err := svc.SetPermission("missing", "auto"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("set permission on a missing session: %+v %v", v, err)
	}
}

// Create goes through the one workspace rule: every refusal has its own kind, home needs the
// person's confirmation, and the stored workspace is the expanded, resolved folder.
func TestCreateAppliesTheWorkspaceRule(t *testing.T) {
	svc, w := newService(t)
	for raw, want := range map[string]errs.Kind{
		"":     workspace.Required,
		"/":    workspace.SystemFolder,
		"/etc": workspace.SystemFolder,
		"sub":  workspace.Relative,
		"~bob": workspace.Invalid,
	} {
		if _, err := svc.Create(CreateInput{Title: "t", Workspace: raw}); errs.KindOf(err) != want {
			t.Errorf("workspace %q: %v, want %s", raw, err, want)
		}
	}
	if _, err := svc.Create(CreateInput{Title: "t", Workspace: "~"}); errs.KindOf(err) != workspace.HomeNeedsConfirmation {
		t.Errorf("~ unconfirmed: %v", err)
	}
	v, err := svc.Create(CreateInput{Title: "t", Workspace: "~", ConfirmHome: true})
	if err != nil || v.Workspace != workspace.Home() {
		t.Errorf("~ confirmed: %q %v", v.Workspace, err)
	}
	if v, err := svc.Create(CreateInput{Title: "t", Workspace: w + "/."}); err != nil || v.Workspace != w {
		t.Errorf("a folder is stored clean: %q %v", v.Workspace, err)
	}
}
