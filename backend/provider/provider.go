// Package provider is how the agent talks to a model: one Provider interface over Anthropic's
// Messages API, OpenAI's Chat Completions API (and compatible local servers) and a scripted
// replay for tests and the offline demo, plus API-key lookup and a request recorder.
//
// The types live in package llm so the vendor packages can implement them without importing
// this one; the aliases below make llm.X and provider.X the same type.
package provider

import (
	"os"
	"strconv"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/anthropic"
	"agentdesk/backend/provider/llm"
	"agentdesk/backend/provider/openai"
	"agentdesk/backend/provider/scripted"
)

type (
	Role       = llm.Role
	ToolCall   = llm.ToolCall
	ToolResult = llm.ToolResult
	Message    = llm.Message
	ToolDef    = llm.ToolDef
	Request    = llm.Request
	EventKind  = llm.EventKind
	Event      = llm.Event
	Response   = llm.Response
	Usage      = llm.Usage
	Provider   = llm.Provider
)

const (
	RoleUser       = llm.RoleUser
	RoleAssistant  = llm.RoleAssistant
	EventTextDelta = llm.EventTextDelta
	EventToolCall  = llm.EventToolCall
	StopEndTurn    = llm.StopEndTurn
	StopToolUse    = llm.StopToolUse
	StopMaxTokens  = llm.StopMaxTokens
)

// Error kinds; see package llm for their arguments.
const (
	KeyMissing      = llm.KeyMissing
	HTTPFailed      = llm.HTTPFailed
	StreamFailed    = llm.StreamFailed
	Unreachable     = llm.Unreachable
	ScriptExhausted = llm.ScriptExhausted
	ScriptInvalid   = llm.ScriptInvalid
	RecordFailed    = llm.RecordFailed
	KeyringFailed   = llm.KeyringFailed
	KeyringMissing  = llm.KeyringMissing
	ContextOverflow = llm.ContextOverflow
)

// ErrorKinds lists every error kind of the providers.
var ErrorKinds = llm.ErrorKinds

// Provider kinds, the values of Config.Kind.
const (
	KindAnthropic = anthropic.Name
	KindOpenAI    = openai.Name
	KindScripted  = scripted.Name
)

// Kinds lists the allowed values of Config.Kind.
var Kinds = []string{KindAnthropic, KindOpenAI, KindScripted}

// Config selects and configures a provider.
type Config struct {
	Kind       string // "anthropic" | "openai" | "scripted"
	Model      string // empty: the vendor's default model
	BaseURL    string // empty: ANTHROPIC_BASE_URL / OPENAI_BASE_URL, then the vendor's endpoint
	ScriptPath string // the script file of the scripted provider
	RecordPath string // non-empty: record every request to this file (see Record)
	// ContextWindow overrides the model's context window in tokens (0: AGENTDESK_CONTEXT_WINDOW,
	// then the catalogue, llm.ContextWindow): a local model's real window is known only to the
	// person who loaded it.
	ContextWindow int
	Getenv        func(string) string
}

// WindowEnv names the environment variable that sets the context window of any model.
const WindowEnv = "AGENTDESK_CONTEXT_WINDOW"

// window is the configured override, or 0.
func (cfg Config) window() int {
	if cfg.ContextWindow > 0 {
		return cfg.ContextWindow
	}
	n, err := strconv.Atoi(strings.TrimSpace(cfg.Getenv(WindowEnv)))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// WindowOf is the context window of the model p sends to, in tokens: what the provider knows
// of its model (through a recorder too), else llm.DefaultWindowUnknown.
func WindowOf(p Provider) int {
	for p != nil {
		if w, ok := p.(llm.Windowed); ok && w.ContextWindow() > 0 {
			return w.ContextWindow()
		}
		u, ok := p.(interface{ Unwrap() Provider })
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	return llm.DefaultWindowUnknown
}

// New builds the provider cfg describes: it checks the kind, finds the API key (environment,
// then OS keyring) and wraps the provider with a recorder when RecordPath is set.
func New(cfg Config) (Provider, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	build, ok := builders[cfg.Kind]
	if !ok {
		return nil, errs.Invalid("provider", cfg.Kind, Kinds)
	}
	p, err := build(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.RecordPath == "" {
		return p, nil
	}
	rec, err := Record(p, cfg.RecordPath)
	if err != nil {
		return nil, err
	}
	return rec, nil
}

var builders = map[string]func(Config) (Provider, error){
	KindAnthropic: newAnthropic,
	KindOpenAI:    newOpenAI,
	KindScripted:  newScripted,
}

func newAnthropic(cfg Config) (Provider, error) {
	key, _, ok := findKey(KindAnthropic, cfg.Getenv)
	if !ok {
		return nil, keyMissing(KindAnthropic)
	}
	base := firstNonEmpty(cfg.BaseURL, cfg.Getenv("ANTHROPIC_BASE_URL"))
	return anthropic.New(anthropic.Options{Key: key, BaseURL: base, Model: cfg.Model, ContextWindow: cfg.window()}), nil
}

// localKey stands in for an API key on a loopback server: local servers ignore it, but the SDK
// and some servers insist on an Authorization header.
const localKey = "agentdesk-local"

func newOpenAI(cfg Config) (Provider, error) {
	base := firstNonEmpty(cfg.BaseURL, cfg.Getenv("OPENAI_BASE_URL"))
	key, _, ok := findKey(KindOpenAI, cfg.Getenv)
	if !ok {
		if !isLoopback(base) {
			return nil, keyMissing(KindOpenAI)
		}
		key = localKey
	}
	return openai.New(openai.Options{Key: key, BaseURL: base, Model: cfg.Model, ContextWindow: cfg.window()}), nil
}

func newScripted(cfg Config) (Provider, error) {
	if cfg.ScriptPath == "" {
		return nil, errs.New(errs.InvalidInput, "Field", "script")
	}
	p, err := scripted.Load(cfg.ScriptPath)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
