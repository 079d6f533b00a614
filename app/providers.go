package app

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// Provider settings. Keys are never stored here: they live in the environment or the keyring.
const (
	settingProviderKind    = "provider.kind"
	settingProviderModel   = "provider.model"
	settingProviderBaseURL = "provider.base_url"

	// ProviderDemo is what earlier builds saved as the provider of every turn once the demo had
	// started; it now reads as no provider: the demo runs only in its own sessions.
	ProviderDemo = "demo"

	// NoProvider is a turn started before any provider was chosen.
	NoProvider errs.Kind = "NO_PROVIDER"
)

// ProviderView is the provider part of the Settings page.
type ProviderView struct {
	Kind    string     `json:"kind"`
	Model   string     `json:"model"`
	BaseURL string     `json:"baseUrl"`
	Keys    KeySources `json:"keys"`
}

// CommandLineProvider names the provider given on the command line.
type CommandLineProvider struct {
	Kind  string `json:"kind"`
	Model string `json:"model,omitempty"`
}

// KeySources says where each vendor's key comes from: "env", "keyring" or "" (none).
type KeySources struct {
	Anthropic string `json:"anthropic"`
	OpenAI    string `json:"openai"`
}

func (s *Services) providerView() (ProviderView, error) {
	return providerView(s.Store, s.getenv)
}

func providerView(st *store.Store, getenv func(string) string) (ProviderView, error) {
	var v ProviderView
	for key, dst := range map[string]*string{settingProviderKind: &v.Kind, settingProviderModel: &v.Model, settingProviderBaseURL: &v.BaseURL} {
		val, _, err := st.GetSetting(key)
		if err != nil {
			return v, err
		}
		*dst = val
	}
	v.Keys.Anthropic, _ = provider.HasKey(provider.KindAnthropic, getenv)
	v.Keys.OpenAI, _ = provider.HasKey(provider.KindOpenAI, getenv)
	return v, nil
}

// providerReady is false on a first run: no provider chosen, or one that cannot work yet.
func (s *Services) providerReady(v ProviderView) bool {
	switch {
	case s.override != nil:
		return true
	case v.Kind == provider.KindAnthropic:
		return v.Keys.Anthropic != ""
	case v.Kind == provider.KindOpenAI:
		return v.Keys.OpenAI != "" || v.BaseURL != ""
	}
	return false
}

// canRun says whether a turn of the session has something to run on: its external agent, its
// demo script, the command line's provider, or a provider set up in Settings.
func (s *Services) canRun(sessionID string) error {
	if _, ok, err := s.demos.provider(sessionID); ok {
		return err
	}
	if s.override != nil {
		return nil
	}
	if agent, err := s.Store.ExternalAgent(sessionID); err != nil || agent != "" {
		return err
	}
	v, err := s.providerView()
	if err != nil {
		return err
	}
	if !s.providerReady(v) {
		return errs.New(NoProvider)
	}
	return nil
}

// providerForTurn is a demo session's own script, else the command line's provider, else the
// one Settings describe.
func (s *Services) providerForTurn(sessionID string) (provider.Provider, error) {
	if p, ok, err := s.demos.provider(sessionID); ok {
		return p, err
	}
	if s.override != nil {
		return s.override, nil
	}
	return SettingsProvider(s.Store, s.getenv)(sessionID)
}

// SettingsProvider builds the provider of each turn from Settings, so a change applies without
// a restart; every surface (window, browser, run, acp) uses it unless told otherwise.
func SettingsProvider(st *store.Store, getenv func(string) string) agent.ProviderSource {
	return func(string) (provider.Provider, error) {
		v, err := providerView(st, getenv)
		if err != nil {
			return nil, err
		}
		if v.Kind == "" || v.Kind == ProviderDemo {
			return nil, errs.New(NoProvider)
		}
		return provider.New(provider.Config{Kind: v.Kind, Model: v.Model, BaseURL: v.BaseURL, Getenv: getenv})
	}
}

// SetProviderRequest chooses the provider for new turns.
type SetProviderRequest struct {
	Kind    string `json:"kind"`
	Model   string `json:"model"`
	BaseURL string `json:"baseUrl"`
}

// KeyRequest saves or removes a vendor key in the OS keyring.
type KeyRequest struct {
	Provider string `json:"provider"`
	Key      string `json:"key,omitempty"`
}

// SetProvider saves the provider, model and base URL.
func (f *Settings) SetProvider(req SetProviderRequest) (SettingsView, error) {
	allowed := []string{provider.KindAnthropic, provider.KindOpenAI}
	if !contains(allowed, req.Kind) {
		return SettingsView{}, f.s.fail(errs.Invalid("provider", req.Kind, allowed))
	}
	for key, val := range map[string]string{settingProviderKind: req.Kind, settingProviderModel: req.Model, settingProviderBaseURL: req.BaseURL} {
		if err := f.s.Store.SetSetting(key, val); err != nil {
			return SettingsView{}, f.s.fail(err)
		}
	}
	return f.publish()
}

// SaveKey stores a key in the OS keyring; it never touches the database.
func (f *Settings) SaveKey(req KeyRequest) (SettingsView, error) {
	if err := checkVendor(req.Provider); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := provider.SaveKey(req.Provider, req.Key); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// DeleteKey removes a key from the OS keyring.
func (f *Settings) DeleteKey(req KeyRequest) (SettingsView, error) {
	if err := checkVendor(req.Provider); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := provider.DeleteKey(req.Provider); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

func checkVendor(name string) error {
	allowed := []string{provider.KindAnthropic, provider.KindOpenAI}
	if !contains(allowed, name) {
		return errs.Invalid("provider", name, allowed)
	}
	return nil
}

// LocalServer is one OpenAI-compatible server probed on loopback.
type LocalServer struct {
	Name    string   `json:"name"`
	BaseURL string   `json:"baseUrl"`
	OK      bool     `json:"ok"`
	Models  []string `json:"models"`
}

var localServers = []LocalServer{
	{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"},
	{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
}

// ProbeLocal asks the usual local model servers, on loopback only, which models they serve.
func (f *Settings) ProbeLocal() ([]LocalServer, error) {
	out := make([]LocalServer, len(localServers))
	for i, srv := range localServers {
		out[i] = probe(srv)
	}
	return out, nil
}

func probe(srv LocalServer) LocalServer {
	srv.Models = []string{}
	ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.BaseURL+"/models", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return srv
	}
	defer resp.Body.Close()
	var body struct {
		Data []struct{ ID string } `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil {
		return srv
	}
	srv.OK = true
	for _, m := range body.Data {
		srv.Models = append(srv.Models, m.ID)
	}
	return srv
}

// StartDemo opens a demo session in a fresh scratch folder: Smart · Plan with Ask, so the tour
// shows a question, a plan review and approvals. The session runs on its own scripted provider,
// in the current language, and never changes the provider of any other session. Its folder is
// removed when the session is deleted, or at the next start.
func (f *Settings) StartDemo() (Session, error) {
	dir, err := newDemoDir(f.s.T("demo.readme", nil))
	if err != nil {
		return Session{}, f.s.fail(err)
	}
	plan, perm := string(mode.Plan), string(policy.Ask)
	v, err := (&session.Service{Store: f.s.Store}).Create(session.CreateInput{Title: f.s.T("demo.title", nil), Workspace: dir,
		Mode: mode.FollowUpInput{ExecutionOverride: &plan}, Permission: &perm})
	if err == nil {
		err = f.s.demos.add(demoRecord{Session: v.ID, Dir: dir, Lang: f.s.Language()})
	}
	if err != nil {
		removeDemoDir(dir)
		return Session{}, f.s.fail(err)
	}
	return (&Sessions{f.s}).changed(v, nil)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
