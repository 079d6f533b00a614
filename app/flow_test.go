package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
)

func TestSettingsValidateAndPublish(t *testing.T) {
	svc := newServices(t)
	settings := &Settings{svc}
	var changes atomic.Int32
	svc.Bus.Subscribe(func(e bus.Event) {
		if e.Name == "settings.changed" {
			changes.Add(1)
		}
	})
	changed := func() (n int) {
		synced(t, svc, func() { n = int(changes.Load()) })
		return n
	}
	for name, call := range map[string]func() error{
		"timeout":  func() error { _, err := settings.SetDecisionTimeout(ValueRequest{Value: "2s"}); return err },
		"theme":    func() error { _, err := settings.SetTheme(ThemeRequest{Theme: "neon"}); return err },
		"provider": func() error { _, err := settings.SetProvider(SetProviderRequest{Kind: "gemini"}); return err },
		"permission": func() error {
			_, err := settings.SetDefaultPermission(SetDefaultPermissionRequest{PermissionMode: "bypass"})
			return err
		},
		"key vendor": func() error { _, err := settings.SaveKey(KeyRequest{Provider: "acme", Key: "k"}); return err },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), string(errs.InvalidValue)) {
			t.Errorf("%s: want INVALID_VALUE, got %v", name, err)
		}
	}
	if n := changed(); n != 0 {
		t.Fatalf("a refused write published %d changes", n)
	}
	if view, _ := settings.Get(); view.DecisionTimeout != "never" {
		t.Fatalf("by default a decision waits for the person: %q", view.DecisionTimeout)
	}
	view, err := settings.SetDecisionTimeout(ValueRequest{Value: "90s"})
	if err != nil || view.DecisionTimeout != "1m30s" {
		t.Fatalf("timeout: %+v %v", view, err)
	}
	if view, err = settings.SetDecisionTimeout(ValueRequest{Value: "never"}); err != nil || view.DecisionTimeout != "never" {
		t.Fatalf("never: %+v %v", view, err)
	}
	view, _ = settings.SetProvider(SetProviderRequest{Kind: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3"})
	if n := changed(); !view.ProviderReady || n != 3 {
		t.Fatalf("a local OpenAI-compatible server needs no key: %+v (%d changes)", view, n)
	}
}

func TestConfigureIsQueuedWhileATurnRuns(t *testing.T) {
	svc := newServices(t)
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"responses":[{"text":"slow","delay_ms":1000},{"text":"next"}]}`), 0o600)
	svc.override, _ = newScripted(script)
	sess, _ := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace})
	(&Composer{svc}).Send(SendRequest{SessionID: sess.ID, Text: "work"})
	chat := "chat"
	res, err := (&Sessions{svc}).Configure(ConfigureSessionRequest{ID: sess.ID, InteractionMode: &chat})
	if err != nil || !res.Queued || res.Session.InteractionMode != "smart" || !res.Session.Running {
		t.Fatalf("configure during a turn: %+v %v", res, err)
	}
	tr, _ := (&Sessions{svc}).Transcript(TranscriptRequest{ID: sess.ID})
	if len(tr.Queue) != 1 || tr.Running == "" {
		t.Fatalf("transcript while running: %+v", tr)
	}
	svc.Runtime.Wait(context.Background(), sess.ID)
	after, _ := (&Sessions{svc}).list(t)
	if after[0].InteractionMode != "chat" {
		t.Fatalf("after the boundary: %+v", after[0])
	}
}
