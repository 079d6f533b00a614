package provider

import (
	"path/filepath"
	"testing"

	"agentdesk/backend/provider/llm"
	"agentdesk/backend/provider/scripted"
)

// The window of a provider: the configured one, else AGENTDESK_CONTEXT_WINDOW, else the
// catalogue; seen through a recorder too; a provider that knows none gets the small default.
func TestTheContextWindowOfAProvider(t *testing.T) {
	cases := []struct {
		cfg  Config
		want int
	}{
		{Config{Kind: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5-coder", Getenv: env()}, llm.DefaultWindowUnknown},
		{Config{Kind: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5-coder", Getenv: env(WindowEnv, "32768")}, 32768},
		{Config{Kind: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5-coder", ContextWindow: 4096, Getenv: env(WindowEnv, "32768")}, 4096},
		{Config{Kind: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "gpt-4o", Getenv: env(WindowEnv, "lots")}, 128_000},
		{Config{Kind: KindAnthropic, Getenv: env("ANTHROPIC_API_KEY", "k")}, llm.DefaultWindowClaude},
		{Config{Kind: KindAnthropic, RecordPath: filepath.Join(t.TempDir(), "r.json"), Getenv: env("ANTHROPIC_API_KEY", "k", WindowEnv, "5000")}, 5000},
	}
	for _, c := range cases {
		p, err := New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := WindowOf(p); got != c.want {
			t.Errorf("%+v: window %d, want %d", c.cfg, got, c.want)
		}
	}
	s, _ := scripted.FromBytes("s", []byte(`{"responses":[],"context_window":900}`))
	if WindowOf(s) != 900 {
		t.Errorf("a script's window: %d", WindowOf(s))
	}
	s, _ = scripted.FromBytes("s", []byte(`{"responses":[]}`))
	if WindowOf(s) < 1<<30 {
		t.Errorf("a script without a window must never compact: %d", WindowOf(s))
	}
	if WindowOf(nil) != llm.DefaultWindowUnknown {
		t.Error("no provider")
	}
}
