package session

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/store"
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
