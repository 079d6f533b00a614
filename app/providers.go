package app

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/locales"
)

// Provider settings. Keys are never stored here: they live in the environment or the keyring.
const (
	settingProviderKind    = "provider.kind"
	settingProviderModel   = "provider.model"
	settingProviderBaseURL = "provider.base_url"

	// ProviderDemo is the offline demo: the scripted provider with the embedded demo script.
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
	case s.override != nil, v.Kind == ProviderDemo:
		return true
	case v.Kind == provider.KindAnthropic:
		return v.Keys.Anthropic != ""
	case v.Kind == provider.KindOpenAI:
		return v.Keys.OpenAI != "" || v.BaseURL != ""
	}
	return false
}

// providerForTurn is the command line's provider, else the one Settings describe.
func (s *Services) providerForTurn() (provider.Provider, error) {
	if s.override != nil {
		return s.override, nil
	}
	return SettingsProvider(s.Store, s.getenv, s.Language)()
}

// SettingsProvider builds the provider of each turn from Settings, so a change applies without
// a restart; every surface (window, browser, run, acp) uses it unless told otherwise. The demo
// gets a fresh script per turn, in the language lang gives.
func SettingsProvider(st *store.Store, getenv func(string) string, lang func() string) agent.ProviderSource {
	return func() (provider.Provider, error) {
		v, err := providerView(st, getenv)
		if err != nil {
			return nil, err
		}
		switch v.Kind {
		case "":
			return nil, errs.New(NoProvider)
		case ProviderDemo:
			data, err := locales.Demo.ReadFile("demo/demo." + lang() + ".json")
			if err != nil {
				return nil, errs.Wrap(errs.Internal, err)
			}
			return scripted.FromBytes("demo", data)
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
	Key      string `json:"key"`
}

// SetProvider saves the provider, model and base URL.
func (f *Settings) SetProvider(req SetProviderRequest) (SettingsView, error) {
	allowed := []string{provider.KindAnthropic, provider.KindOpenAI, ProviderDemo}
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

// StartDemo switches to the offline demo and opens a demo session in a scratch folder: Smart ·
// Plan with Ask, so the tour shows a question, a plan review and approvals.
// The scratch folder is a fresh temporary folder.
func (f *Settings) StartDemo() (Session, error) {
	if _, err := f.SetProvider(SetProviderRequest{Kind: ProviderDemo}); err != nil {
		return Session{}, err
	}
	// Not inside the data folder: that is protected, and every read there would ask.
	dir, err := os.MkdirTemp("", "agentdesk-demo-")
	if err != nil {
		return Session{}, f.s.fail(errs.Wrap(errs.Internal, err))
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte(f.s.T("demo.readme", nil)), 0o644)
	plan, perm := string(mode.Plan), string(policy.Ask)
	v, err := (&session.Service{Store: f.s.Store}).Create(session.CreateInput{Title: f.s.T("demo.title", nil), Workspace: dir,
		Mode: mode.FollowUpInput{ExecutionOverride: &plan}, Permission: &perm})
	return (&Sessions{f.s}).changed(v, err)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
