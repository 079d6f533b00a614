package app

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/locales"
)

// SettingsView is every setting the Settings page shows.
type SettingsView struct {
	Language          string                `json:"language"`
	DefaultPermission policy.PermissionMode `json:"defaultPermission"`
	DecisionTimeout   string                `json:"decisionTimeout"`
	// StepLimit is how many model requests a turn makes before it pauses to ask whether to go on.
	StepLimit      int          `json:"stepLimit"`
	Theme          Theme        `json:"theme"`
	Provider       ProviderView `json:"provider"`
	ProviderReady  bool         `json:"providerReady"`
	ExternalAgents []string     `json:"externalAgents"`
	// AgentFacts is what AgentDesk saw of each external agent in its last session that ran
	// calls: whether it asked first, and its modes. An agent never run has none.
	AgentFacts []AgentFactView `json:"agentFacts"`
	// ParallelTurns bounds the turns running at once (0: no bound); WorktreeIsolation is when a
	// new task in a repository defaults to its own worktree ("busy", "always", "never").
	ParallelTurns     int    `json:"parallelTurns"`
	WorktreeIsolation string `json:"worktreeIsolation"`
	// WorktreeCopy names the untracked files a new task's worktree gets a copy of (globs), and
	// WorktreeSetup is the person's own set-up command run there ("" for none).
	WorktreeCopy  []string `json:"worktreeCopy"`
	WorktreeSetup string   `json:"worktreeSetup"`
	// AgentReach is, for each saved external agent, what its process may reach from inside the
	// sandbox: saved in Settings, or the defaults its name implies.
	AgentReach []AgentReachView `json:"agentReach"`
	// ExternalStartTimeout bounds an external agent's start-up, a Go duration such as "2m0s".
	ExternalStartTimeout string `json:"externalStartTimeout"`
	// CommandLine is the provider the command line fixed for every turn (serve --provider …),
	// which then stands in for Provider; nil when Settings decide.
	CommandLine *CommandLineProvider `json:"commandLine,omitempty"`
	// ShellEnvPassthrough names variables shell commands keep although they look like secrets.
	ShellEnvPassthrough []string `json:"shellEnvPassthrough"`
	// Sandbox is what the kernel offers shell commands here ("landlock" or "none").
	Sandbox sandbox.Support `json:"sandbox"`
	// Checkpoints are the checkpoint store's settings and usage (settings_checkpoints.go).
	Checkpoints CheckpointSettingsView `json:"checkpoints"`
	// SensitivePaths is the list of paths read only when the person approves (denied in Full).
	SensitivePaths []string `json:"sensitivePaths"`
	// DefaultSensitivePaths is the list "reset to defaults" restores.
	DefaultSensitivePaths []string `json:"defaultSensitivePaths"`
}

// SensitivePathsRequest is the sensitive paths list; Reset restores the default list instead.
type SensitivePathsRequest struct {
	Paths []string `json:"paths"`
	Reset bool     `json:"reset,omitempty"`
}

// SetSensitivePaths saves the sensitive paths list; it applies from the next tool call.
func (f *Settings) SetSensitivePaths(req SensitivePathsRequest) (SettingsView, error) {
	paths := req.Paths
	if req.Reset {
		paths = nil
	} else if paths == nil {
		paths = []string{}
	}
	if err := f.s.Store.SetSensitivePaths(paths); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// NamesRequest is a list of environment variable names.
type NamesRequest struct {
	Names []string `json:"names"`
}

// SetShellEnvPassthrough saves the variables shell commands keep despite secret-like names.
func (f *Settings) SetShellEnvPassthrough(req NamesRequest) (SettingsView, error) {
	if err := f.s.Store.SetShellPassEnv(req.Names); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// ExternalAgentsRequest is the list of external ACP agent command lines sessions may use.
type ExternalAgentsRequest struct {
	Commands []string `json:"commands"`
}

// SetExternalAgents saves the external agents a new session may run on.
func (f *Settings) SetExternalAgents(req ExternalAgentsRequest) (SettingsView, error) {
	if err := f.s.Store.SetExternalAgents(req.Commands); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// AgentReachRequest sets what a saved agent may reach from inside the sandbox; Reset goes back
// to the defaults its name implies.
type AgentReachRequest struct {
	Command string   `json:"command"`
	Hosts   []string `json:"hosts"`
	Folders []string `json:"folders"`
	Reset   bool     `json:"reset,omitempty"`
}

// SetAgentReach saves the hosts and state folders of one saved external agent.
func (f *Settings) SetAgentReach(req AgentReachRequest) (SettingsView, error) {
	saved, err := f.s.Store.ExternalAgents()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if !contains(saved, strings.TrimSpace(req.Command)) {
		return SettingsView{}, f.s.fail(errs.New(client.ExternalAgentNotSaved, "Agent", req.Command))
	}
	var r *store.AgentReach
	if !req.Reset {
		reach := external.Reach{Hosts: trimmed(req.Hosts), Folders: trimmed(req.Folders)}
		if err := reach.Check(); err != nil {
			return SettingsView{}, f.s.fail(err)
		}
		r = &store.AgentReach{Hosts: reach.Hosts, Folders: reach.Folders}
	}
	if err := f.s.Store.SetAgentReach(req.Command, r); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// trimmed drops blank entries and the spaces around the others.
func trimmed(list []string) []string {
	out := []string{}
	for _, v := range list {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// SetExternalStartTimeout saves how long an external agent may take to start.
func (f *Settings) SetExternalStartTimeout(req ValueRequest) (SettingsView, error) {
	if _, err := f.s.Store.SetExternalStartTimeout(req.Value); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetLanguageRequest picks the UI language.
type SetLanguageRequest struct {
	Language string `json:"language"`
}

// SetDefaultPermissionRequest changes the default permission mode for new sessions.
type SetDefaultPermissionRequest struct {
	PermissionMode string `json:"permissionMode"`
}

// ValueRequest carries one setting value.
type ValueRequest struct {
	Value string `json:"value"`
}

// ThemeRequest picks the theme.
type ThemeRequest struct {
	Theme Theme `json:"theme"`
}

// Theme is how the window looks: as the system does, light or dark.
type Theme string

const (
	ThemeSystem Theme = "system"
	ThemeLight  Theme = "light"
	ThemeDark   Theme = "dark"
)

var themes = []string{string(ThemeSystem), string(ThemeLight), string(ThemeDark)}

// Settings is the Settings page's facade: the only writer of defaults.
type Settings struct{ s *Services }

// Get returns the current settings.
func (f *Settings) Get() (SettingsView, error) {
	def, err := f.s.Store.GetDefaultPermission()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	theme, _, err := f.s.Store.GetSetting(settingTheme)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if !contains(themes, theme) {
		theme = string(ThemeSystem)
	}
	prov, err := f.s.providerView()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	agents, err := f.s.Store.ExternalAgents()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	facts, err := f.s.agentFacts()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	reach, err := f.s.agentReach(agents)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	pass, err := f.s.Store.ShellPassEnv()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	checkpoints, err := f.s.checkpointView()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	sensitive, err := f.s.Store.SensitivePaths()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	copyGlobs, setup := f.s.worktreePrep()
	return SettingsView{WorktreeCopy: copyGlobs, WorktreeSetup: setup, Checkpoints: checkpoints, Language: f.s.Language(), DefaultPermission: def.Mode, Theme: Theme(theme), ExternalAgents: agents, AgentFacts: facts, AgentReach: reach,
		ParallelTurns: agent.ParallelTurns(f.s.Store), WorktreeIsolation: string(store.SettingOr(f.s.Store, store.SettingIsolation, session.ParseIsolation, session.IsolateWhenBusy)),
		DecisionTimeout: decision.FormatTimeout(decision.TimeoutSetting(f.s.Store)()), StepLimit: agent.StepLimit(f.s.Store), Provider: prov, ProviderReady: f.s.providerReady(prov),
		ShellEnvPassthrough: pass, Sandbox: sandbox.Status(), ExternalStartTimeout: f.s.Store.ExternalStartTimeout().String(),
		CommandLine: f.s.commandLine, SensitivePaths: sensitive.Entries(), DefaultSensitivePaths: policy.DefaultSensitive}, nil
}

// SetLanguage persists the UI language and tells every window.
func (f *Settings) SetLanguage(req SetLanguageRequest) (SettingsView, error) {
	if !i18n.Supported(req.Language) {
		return SettingsView{}, f.s.fail(errs.Invalid("language", req.Language, locales.Languages))
	}
	if err := f.s.Store.SetSetting(settingLanguage, req.Language); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	f.s.setLanguage(req.Language)
	return f.publish()
}

// SetDefaultPermission is the only writer of the default permission mode (R-AUTH-1).
func (f *Settings) SetDefaultPermission(req SetDefaultPermissionRequest) (SettingsView, error) {
	p, err := policy.ParsePermission(req.PermissionMode)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetDefaultPermission(p); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetDecisionTimeout sets how long a decision waits for an answer.
func (f *Settings) SetDecisionTimeout(req ValueRequest) (SettingsView, error) {
	d, err := decision.ParseTimeout(req.Value)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetSetting(decision.SettingTimeout, decision.FormatTimeout(d)); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetParallelTurns bounds how many turns run at once (0: no bound).
func (f *Settings) SetParallelTurns(req ValueRequest) (SettingsView, error) {
	n, err := agent.ParseParallelTurns(strings.TrimSpace(req.Value))
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetSetting(agent.SettingParallelTurns, strconv.Itoa(n)); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetWorktreeIsolation says when a new task in a repository defaults to its own worktree.
func (f *Settings) SetWorktreeIsolation(req ValueRequest) (SettingsView, error) {
	i, err := session.ParseIsolation(strings.TrimSpace(req.Value))
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetSetting(store.SettingIsolation, string(i)); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetStepLimit sets how many model requests a turn makes between two continue decisions; it
// applies from the next turn.
func (f *Settings) SetStepLimit(req ValueRequest) (SettingsView, error) {
	n, err := agent.ParseStepLimit(req.Value)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetSetting(agent.SettingStepLimit, strconv.Itoa(n)); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetTheme picks system, light or dark.
func (f *Settings) SetTheme(req ThemeRequest) (SettingsView, error) {
	if !contains(themes, string(req.Theme)) {
		return SettingsView{}, f.s.fail(errs.Invalid("theme", string(req.Theme), themes))
	}
	if err := f.s.Store.SetSetting(settingTheme, string(req.Theme)); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// RuleView is one "always allow" (or deny) rule as Settings lists it.
type RuleView struct {
	ID        string        `json:"id"`
	Effect    policy.Effect `json:"effect"`
	Kind      string        `json:"kind"`
	Path      string        `json:"path"`
	Command   string        `json:"command"`
	MCP       string        `json:"mcp,omitempty"`
	Scope     policy.Scope  `json:"scope"`
	Source    string        `json:"source"`
	CreatedAt time.Time     `json:"createdAt"`
}

// scopeOf names a stored scope as the gate reads it: anything but prefix or pattern is exact.
func scopeOf(s policy.Scope) policy.Scope {
	if s == policy.ScopePrefix || s == policy.ScopePattern {
		return s
	}
	return policy.ScopeExact
}

// RuleRef names one rule.
type RuleRef struct {
	ID string `json:"id"`
}

// Rules lists the rules, oldest first.
func (f *Settings) Rules() ([]RuleView, error) {
	rows, err := f.s.Store.Rules()
	if err != nil {
		return nil, f.s.fail(err)
	}
	out := make([]RuleView, len(rows))
	for i, r := range rows {
		rule := r.Rule()
		out[i] = RuleView{ID: rule.ID, Effect: rule.Effect, Kind: string(rule.Kind), Path: rule.Path,
			Command: rule.Command, MCP: rule.MCP, Scope: scopeOf(rule.Scope), Source: r.Source, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

// RevokeRule deletes a rule; the next call it covered asks again.
func (f *Settings) RevokeRule(req RuleRef) ([]RuleView, error) {
	if err := f.s.Store.DeleteRule(req.ID); err != nil {
		return nil, f.s.fail(err)
	}
	rules, err := f.Rules()
	if err == nil {
		f.s.Bus.Publish(EventRulesChanged, rules)
	}
	return rules, err
}

func (f *Settings) publish() (SettingsView, error) {
	view, err := f.Get()
	if err == nil {
		f.s.Bus.Publish(EventSettingsChanged, view)
	}
	return view, err
}

// AgentFactView is what AgentDesk saw of one external agent the last time a session of it ran
// calls, for the runtime picker and Settings.
type AgentFactView struct {
	Command string `json:"command"`
	// Calls the agent ran; Asked is whether it asked permission before any of them.
	Calls int  `json:"calls"`
	Asked bool `json:"asked"`
	// Modes it publishes, and the one Smart · Plan maps to ("" when it has none).
	Modes    []AgentModeView `json:"modes"`
	PlanMode string          `json:"planMode"`
	At       string          `json:"at"`
}

// AgentModeView is one mode an external agent publishes.
type AgentModeView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// AgentReachView is what one saved external agent may reach; Saved is false for the defaults.
type AgentReachView struct {
	Command string   `json:"command"`
	Hosts   []string `json:"hosts"`
	Folders []string `json:"folders"`
	Saved   bool     `json:"saved"`
}

func (s *Services) agentReach(agents []string) ([]AgentReachView, error) {
	all, err := s.Store.AgentReaches()
	if err != nil {
		return nil, err
	}
	out := make([]AgentReachView, 0, len(agents))
	for _, command := range agents {
		v := AgentReachView{Command: command}
		if r, ok := all[command]; ok {
			v.Hosts, v.Folders, v.Saved = r.Hosts, r.Folders, true
		} else {
			d := external.DefaultReach(command)
			v.Hosts, v.Folders = d.Hosts, d.Folders
		}
		out = append(out, v)
	}
	return out, nil
}

func (s *Services) agentFacts() ([]AgentFactView, error) {
	facts, err := s.Store.AgentFacts()
	if err != nil {
		return nil, err
	}
	out := make([]AgentFactView, 0, len(facts))
	for command, f := range facts {
		v := AgentFactView{Command: command, Calls: f.Calls, Asked: f.Asked, PlanMode: f.PlanMode,
			Modes: make([]AgentModeView, 0, len(f.Modes)), At: f.At.Format(time.RFC3339)}
		for _, m := range f.Modes {
			v.Modes = append(v.Modes, AgentModeView(m))
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b AgentFactView) int { return strings.Compare(a.Command, b.Command) })
	return out, nil
}
