package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"agentdesk/backend/i18n"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// Under `serve --provider scripted` Settings report the provider in force, the one the command
// line set, not the unset choice it stands in for; and the offline demo is no provider a person
// can save.
func TestSettingsShowTheProviderTheCommandLineSet(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "script.json")
	os.WriteFile(script, []byte(`{"responses":[{"text":"a"}]}`), 0o600)
	svc, err := NewServices(st, msgs, Options{Info: Info{DefaultWorkspace: t.TempDir(), DataDir: t.TempDir()}, EnvLang: "en",
		Getenv: func(string) string { return "" }, Provider: &provider.Config{Kind: provider.KindScripted, ScriptPath: script}})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		svc.Close(ctx)
	})
	v, err := (&Settings{svc}).Get()
	if err != nil {
		t.Fatal(err)
	}
	if v.CommandLine == nil || v.CommandLine.Kind != provider.KindScripted || !v.ProviderReady {
		t.Fatalf("settings under --provider scripted: command line %+v, ready %v", v.CommandLine, v.ProviderReady)
	}
	if _, err := (&Settings{svc}).SetProvider(SetProviderRequest{Kind: ProviderDemo}); err == nil {
		t.Fatal("the offline demo was saved as the provider of every turn")
	}
	if plain := newServices(t); plain.commandLine != nil {
		t.Fatalf("no --provider, yet the command line names %+v", plain.commandLine)
	}
}
