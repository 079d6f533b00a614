package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/ssetest"
)

// The tests never touch the real OS keyring.
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestUnknownKindListsTheAllowedOnes(t *testing.T) {
	for _, kind := range []string{"", "gemini"} {
		_, err := New(Config{Kind: kind, Getenv: env()})
		e := errs.As(err)
		if e.Kind != errs.InvalidValue || e.Args["Allowed"] != "anthropic, openai, scripted" {
			t.Fatalf("%q: %v", kind, err)
		}
	}
}

func TestMissingKeyNamesTheEnvVarAndKeyringEntry(t *testing.T) {
	for kind, envVar := range map[string]string{KindAnthropic: "ANTHROPIC_API_KEY", KindOpenAI: "OPENAI_API_KEY"} {
		_, err := New(Config{Kind: kind, Getenv: env()})
		e := errs.As(err)
		if e.Kind != KeyMissing || e.Args["Env"] != envVar || e.Args["Service"] != KeyringService || e.Args["User"] != kind {
			t.Fatalf("%s: %v", kind, err)
		}
	}
}

func TestScriptedNeedsAScript(t *testing.T) {
	_, err := New(Config{Kind: KindScripted, Getenv: env()})
	if e := errs.As(err); e.Kind != errs.InvalidInput || e.Args["Field"] != "script" {
		t.Fatalf("err: %v", err)
	}
	_, err = New(Config{Kind: KindScripted, ScriptPath: filepath.Join(t.TempDir(), "none.json"), Getenv: env()})
	if errs.KindOf(err) != ScriptInvalid {
		t.Fatalf("err: %v", err)
	}
}

func TestKeyFromKeyringIsUsed(t *testing.T) {
	if err := SaveKey(KindAnthropic, "  sk-from-keyring  "); err != nil {
		t.Fatal(err)
	}
	defer DeleteKey(KindAnthropic)
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Error(401, `{"type":"error","error":{"type":"authentication_error","message":"no"}}`)
	})
	p, err := New(Config{Kind: KindAnthropic, BaseURL: srv.URL, Getenv: env()})
	if err != nil {
		t.Fatal(err)
	}
	p.Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "hi"}}}, nil)
	h := srv.Header(0)
	if !strings.Contains(h.Get("Authorization")+h.Get("X-Api-Key"), "sk-from-keyring") {
		t.Fatalf("headers: %v", h)
	}
}

// A local server (Ollama, LM Studio, ...) needs no key: a placeholder is sent instead.
func TestLoopbackOpenAIServerNeedsNoKey(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Data(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"llama3","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}`)
		s.Data("[DONE]")
	})
	p, err := New(Config{Kind: KindOpenAI, Model: "llama3", Getenv: env("OPENAI_BASE_URL", srv.URL+"/v1")})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "hi"}}}, nil)
	if err != nil || resp.Text != "hi" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	if got := srv.Header(0).Get("Authorization"); got != "Bearer "+localKey {
		t.Fatalf("Authorization = %q", got)
	}
	if body := srv.Body(t, 0); body["model"] != "llama3" {
		t.Fatalf("body: %v", body)
	}
}

func TestIsLoopback(t *testing.T) {
	for base, want := range map[string]bool{
		"http://localhost:11434/v1": true, "http://127.0.0.1:1234/v1": true, "http://[::1]:8000/v1": true,
		"http://ollama.localhost/v1": true, "https://api.openai.com/v1": false, "http://192.168.1.5:8000": false, "": false,
	} {
		if got := isLoopback(base); got != want {
			t.Errorf("isLoopback(%q) = %v", base, got)
		}
	}
}
