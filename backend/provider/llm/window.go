package llm

import (
	"strings"

	"agentdesk/backend/errs"
)

// Windowed is a provider that knows the context window of the model it sends to, in tokens:
// everything a request holds (system prompt, tools, messages) plus the answer must fit in it.
type Windowed interface {
	ContextWindow() int
}

// Conservative windows for a model the catalogue does not know: every Claude model has had at
// least 200k; a server that is only "OpenAI-compatible" may run a local model whose default
// context is a few thousand tokens, so an unknown one is assumed small rather than overflowed.
const (
	DefaultWindowClaude  = 200_000
	DefaultWindowUnknown = 8_192
)

// windows maps model-name prefixes to their context windows; the longest matching prefix wins,
// so "gpt-4o" is not read as "gpt-4". Dated snapshots ("gpt-4o-2024-08-06") share their
// family's window.
var windows = map[string]int{
	"claude-":       DefaultWindowClaude,
	"gpt-5":         400_000,
	"gpt-4.1":       1_047_576,
	"gpt-4o":        128_000,
	"gpt-4-turbo":   128_000,
	"gpt-4":         8_192,
	"gpt-3.5-turbo": 16_385,
	"o1":            200_000,
	"o3":            200_000,
	"o4-mini":       200_000,
	"chatgpt-4o":    128_000,
}

// ContextWindow is the window of model (a vendor's model name), or DefaultWindowUnknown.
func ContextWindow(model string) int {
	model = strings.ToLower(strings.TrimSpace(model))
	best, window := 0, DefaultWindowUnknown
	for prefix, w := range windows {
		if strings.HasPrefix(model, prefix) && len(prefix) > best {
			best, window = len(prefix), w
		}
	}
	return window
}

// overflowHints are how vendors and compatible servers word a request that does not fit the
// model's context: Anthropic ("prompt is too long: 210000 tokens > 200000 maximum"), OpenAI and
// vLLM ("This model's maximum context length is …", code context_length_exceeded), llama.cpp
// ("the request exceeds the available context size"), Ollama and LM Studio ("context length",
// "context window").
var overflowHints = []string{
	"prompt is too long", "maximum context length", "context_length_exceeded", "context length",
	"context window", "exceeds the available context", "exceed_context_size", "too many tokens",
	"input is too long",
}

// IsOverflow reports whether an error status with this code and message says the request did
// not fit the model's context window.
func IsOverflow(status int, code, message string) bool {
	if status != 400 && status != 413 && status != 422 {
		return false
	}
	text := strings.ToLower(code + " " + message)
	for _, h := range overflowHints {
		if strings.Contains(text, h) {
			return true
		}
	}
	return false
}

// OverflowError reports a request the model refused as longer than its context window.
func OverflowError(provider, message, secret string) *errs.Error {
	return errs.New(ContextOverflow, "Provider", provider, "Message", Redact(message, secret))
}

// Options configure a vendor's provider. Key is required (a placeholder will do for a local
// server); BaseURL and Model fall back to the vendor's defaults.
type Options struct {
	Key     string
	BaseURL string
	Model   string
	// ContextWindow overrides the catalogue's window of the model, in tokens (0: the catalogue).
	ContextWindow int
}

// Resolved fills what o leaves unset: the model with defaultModel, the window from the
// catalogue.
func (o Options) Resolved(defaultModel string) Options {
	if o.Model == "" {
		o.Model = defaultModel
	}
	if o.ContextWindow <= 0 {
		o.ContextWindow = ContextWindow(o.Model)
	}
	return o
}
