package app

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

func newServices(t *testing.T) *Services {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := NewServices(st, msgs, Info{DefaultWorkspace: t.TempDir()}, "en")
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func TestBridgeExposesEveryBoundMethod(t *testing.T) {
	var names []string
	for name := range newServices(t).Methods() {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"Sessions.Configure", "Sessions.Create", "Sessions.Delete", "Sessions.Fork", "Sessions.List",
		"Sessions.Rename", "Sessions.SetPermission", "Settings.Get", "Settings.SetDefaultPermission", "Settings.SetLanguage", "System.Info"}
	if !slices.Equal(names, want) {
		t.Fatalf("methods %v, want %v", names, want)
	}
}

func TestCallsThroughTheBridgeBroadcastAndFailTyped(t *testing.T) {
	svc := newServices(t)
	var events []bus.Event
	svc.Bus.Subscribe(func(e bus.Event) { events = append(events, e) })
	m := svc.Methods()
	out, err := m["Sessions.Create"](context.Background(), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	created := out.(Session)
	if created.Title != "New session" || created.Workspace != svc.Info.DefaultWorkspace {
		t.Fatalf("defaults: %+v", created)
	}
	if len(events) != 1 || events[0].Name != "sessions.changed" || len(events[0].Data.([]Session)) != 1 {
		t.Fatalf("events: %+v", events)
	}
	_, err = m["Sessions.Create"](context.Background(), json.RawMessage(`{"workspace":"/no/such/folder"}`))
	var body = svc.Describe(err)
	if body.Kind != "WORKSPACE_NOT_FOUND" || !strings.Contains(body.Message, "/no/such/folder") {
		t.Fatalf("missing workspace: %+v", body)
	}
	_, err = m["Sessions.Rename"](context.Background(), json.RawMessage(`{"id":"`+created.ID+`"`))
	if svc.Describe(err).Kind != string(errs.InvalidInput) {
		t.Fatalf("malformed JSON: %v", err)
	}
}

func TestWailsRejectionIsLocalizedJSON(t *testing.T) {
	svc := newServices(t)
	settings := &Settings{svc}
	if _, err := settings.SetLanguage(SetLanguageRequest{Language: "zh-CN"}); err != nil {
		t.Fatal(err)
	}
	_, err := settings.SetLanguage(SetLanguageRequest{Language: "fr"})
	var f Failure
	if json.Unmarshal([]byte(err.Error()), &f) != nil || f.Kind != "INVALID_VALUE" || !strings.Contains(f.Message, "可选值") {
		t.Fatalf("rejection: %q", err.Error())
	}
	again, _ := NewServices(svc.Store, svc.I18n, svc.Info, "en")
	if again.Language() != "zh-CN" {
		t.Fatal("the language choice did not persist")
	}
}
