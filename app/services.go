// Package app is the seam between the domain and its transports: the facades bound into the
// Wails window are the same ones `agentdesk serve` exposes over HTTP. It is the only Go code
// that imports Wails.
package app

import (
	"context"
	"os"
	"sync"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/host"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mcp"
	"agentdesk/backend/provider"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
)

// Settings keys owned by the app layer.
const (
	settingLanguage = "language"
	settingTheme    = "theme"
)

// Info describes the running app.
type Info struct {
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
	// DefaultWorkspace is the home folder, shown in About. It is no longer a default: a new
	// session names its folder, and the home folder itself needs the person's confirmation.
	DefaultWorkspace string `json:"defaultWorkspace"`
	// LaunchFolder is the folder AgentDesk was opened on (`agentdesk FOLDER`); the new task
	// offers it first. Empty when none was named.
	LaunchFolder string `json:"launchFolder,omitempty"`
	Transport    string `json:"transport"`
}

// Options are what the command line decides for the services.
type Options struct {
	Info     Info
	EnvLang  string
	Getenv   func(string) string
	Provider *provider.Config // overrides the Settings provider (serve --provider …)
}

// Services is what every facade shares: the store, the event bus, messages, the language, the
// decision registry and the agent runtime. The parts come from the one composition root
// (backend/host), which Close ends.
type Services struct {
	host      *host.Host
	Store     *store.Store
	Bus       *bus.Bus
	I18n      *i18n.Bundle
	Info      Info
	Decisions *decision.Registry
	Runtime   *agent.Runtime
	MCP       *mcp.Host
	// Checkpoints snapshot the workspaces (nil when the store could not open: checkpointErr
	// says why, and Settings shows it); Review restores and reviews over them.
	Checkpoints   *checkpoint.Store
	Review        *rewind.Service
	checkpointErr error

	getenv   func(string) string
	override provider.Provider // fixed provider from the command line, shared by every turn
	states   *liveStates
	demos    *demos
	// commandLine describes override for the Settings page and the composer's model label.
	commandLine *CommandLineProvider
	mu          sync.RWMutex
	lang        string
	// pickFolder opens the native folder dialog; only the desktop window has one (nil in serve).
	pickFolder func(title string) (string, error)
}

// setPicker installs the window's native folder dialog.
func (s *Services) setPicker(pick func(title string) (string, error)) {
	s.mu.Lock()
	s.pickFolder = pick
	s.mu.Unlock()
}

func (s *Services) picker() func(title string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.pickFolder
}

// NewServices wires the facades over an open store, which Close then closes. The language is
// the saved setting, or the one detected from the environment until the person picks one.
// Turns and decisions left unfinished by an earlier run are marked interrupted before anything
// new is asked. When it fails, the store is still the caller's to close.
func NewServices(st *store.Store, msgs *i18n.Bundle, opts Options) (*Services, error) {
	if opts.Info.DefaultWorkspace == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		opts.Info.DefaultWorkspace = home
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	s := &Services{Store: st, Bus: bus.New(), I18n: msgs, Info: opts.Info, lang: opts.EnvLang, getenv: opts.Getenv,
		states: newLiveStates()}
	err := s.loadLanguage()
	if err != nil {
		return nil, err
	}
	if s.demos, err = loadDemos(st); err != nil {
		return nil, err
	}
	if opts.Provider != nil {
		p, err := provider.New(*opts.Provider)
		if err != nil {
			return nil, err
		}
		s.override = p
		s.commandLine = &CommandLineProvider{Kind: p.Name(), Model: opts.Provider.Model}
	}
	h, err := host.New(st, host.Options{Provider: s.providerForTurn, Messages: msgs, DataDir: opts.Info.DataDir,
		Log: os.Stderr, Recover: true, Bus: s.Bus, Publish: s.publish, Getenv: opts.Getenv, Version: opts.Info.Version})
	if err != nil {
		return nil, err
	}
	s.host, s.Decisions, s.Runtime, s.MCP = h, h.Decisions, h.Runtime, h.MCP
	s.Checkpoints, s.checkpointErr, s.Review = h.Checkpoints, h.CheckpointErr, h.Review
	return s, nil
}

// Close ends the app's runtime: running turns are cancelled and awaited, external agents
// stopped, then the store closed (host.Host.Close).
func (s *Services) Close(ctx context.Context) error { return s.host.Close(ctx) }

func (s *Services) loadLanguage() error {
	saved, ok, err := s.Store.GetSetting(settingLanguage)
	if err != nil {
		return err
	}
	if ok && i18n.Supported(saved) {
		s.lang = saved
	}
	return nil
}

// Language is the current UI language.
func (s *Services) Language() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.lang
}

func (s *Services) setLanguage(lang string) {
	s.mu.Lock()
	s.lang = lang
	s.mu.Unlock()
}

// T localizes a key in the current language.
func (s *Services) T(key string, args map[string]any) string {
	return s.I18n.T(s.Language(), key, args)
}

// Facades are the structs bound to the window and served over HTTP, in one list so the two
// transports cannot drift apart.
func (s *Services) Facades() []any {
	return []any{&Sessions{s}, &Composer{s}, &Decisions{s}, &Settings{s}, &System{s}, &MCP{s}, &Checkpoints{s}, &Folders{s}}
}

// orEmpty lets a list reach the frontend as [], never null, so it need not check for both.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
