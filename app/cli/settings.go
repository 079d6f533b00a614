package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// setting is one key `agentdesk settings get|set` knows.
type setting struct {
	get func(st *store.Store) (string, error)
	set func(st *store.Store, value string) error
}

func settingsTable() map[string]setting {
	table := map[string]setting{
		"decision-timeout": {
			get: func(st *store.Store) (string, error) {
				return decision.FormatTimeout(decision.TimeoutSetting(st)()), nil
			},
			set: func(st *store.Store, value string) error {
				d, err := decision.ParseTimeout(value)
				if err != nil {
					return err
				}
				return st.SetSetting(decision.SettingTimeout, decision.FormatTimeout(d))
			},
		},
		"step-limit": {
			get: func(st *store.Store) (string, error) { return strconv.Itoa(agent.StepLimit(st)), nil },
			set: func(st *store.Store, value string) error {
				n, err := agent.ParseStepLimit(value)
				if err != nil {
					return err
				}
				return st.SetSetting(agent.SettingStepLimit, strconv.Itoa(n))
			},
		},
		"shell-env-passthrough": {
			get: func(st *store.Store) (string, error) {
				names, err := st.ShellPassEnv()
				return strings.Join(names, ","), err
			},
			set: func(st *store.Store, value string) error {
				return st.SetShellPassEnv(splitNames(value))
			},
		},
		"sensitive-paths": {
			get: func(st *store.Store) (string, error) {
				list, err := st.SensitivePaths()
				return strings.Join(list.Entries(), "\n"), err
			},
			// One entry per line, or separated by commas; "default" restores the default list and
			// an empty value empties it (nothing is sensitive then).
			set: func(st *store.Store, value string) error {
				if strings.TrimSpace(value) == "default" {
					return st.SetSensitivePaths(nil)
				}
				return st.SetSensitivePaths(splitEntries(value))
			},
		},
		"external-agents": {
			get: func(st *store.Store) (string, error) {
				list, err := st.ExternalAgents()
				return strings.Join(list, "\n"), err
			},
			set: func(st *store.Store, value string) error {
				return st.SetExternalAgents(splitLines(value))
			},
		},
		// What each saved external agent may reach from inside the sandbox, as JSON:
		// {"COMMAND": {"hosts": [...], "folders": [...]}}; an agent left out gets its defaults.
		"agent-reach": {
			get: func(st *store.Store) (string, error) {
				all, err := st.AgentReaches()
				if err != nil {
					return "", err
				}
				raw, err := json.Marshal(all)
				return string(raw), err
			},
			set: setAgentReach,
		},
		"parallel-turns": {
			get: func(st *store.Store) (string, error) { return strconv.Itoa(agent.ParallelTurns(st)), nil },
			set: func(st *store.Store, value string) error {
				n, err := agent.ParseParallelTurns(strings.TrimSpace(value))
				if err != nil {
					return err
				}
				return st.SetSetting(agent.SettingParallelTurns, strconv.Itoa(n))
			},
		},
		"worktree-isolation": {
			get: func(st *store.Store) (string, error) {
				return string(store.SettingOr(st, store.SettingIsolation, session.ParseIsolation, session.IsolateWhenBusy)), nil
			},
			set: func(st *store.Store, value string) error {
				i, err := session.ParseIsolation(strings.TrimSpace(value))
				if err != nil {
					return err
				}
				return st.SetSetting(store.SettingIsolation, string(i))
			},
		},
		"external-agent-start-timeout": {
			get: func(st *store.Store) (string, error) { return st.ExternalStartTimeout().String(), nil },
			set: func(st *store.Store, value string) error {
				_, err := st.SetExternalStartTimeout(value)
				return err
			},
		},
		"default-permission": {
			get: func(st *store.Store) (string, error) {
				d, err := st.GetDefaultPermission()
				return string(d.Mode), err
			},
			set: func(st *store.Store, value string) error {
				p, err := policy.ParsePermission(value)
				if err != nil {
					return err
				}
				return st.SetDefaultPermission(p)
			},
		},
	}
	maps.Copy(table, checkpointSettings())
	maps.Copy(table, worktreeSettings())
	return table
}

// setAgentReach replaces every saved reach with value's, each checked as Settings checks it.
func setAgentReach(st *store.Store, value string) error {
	var all map[string]store.AgentReach
	if err := json.Unmarshal([]byte(value), &all); err != nil {
		return errs.Invalid("agent-reach", value, []string{`{"COMMAND": {"hosts": [...], "folders": [...]}}`})
	}
	saved, err := st.ExternalAgents()
	if err != nil {
		return err
	}
	for command, r := range all {
		if !slices.Contains(saved, strings.TrimSpace(command)) {
			return errs.New(client.ExternalAgentNotSaved, "Agent", command)
		}
		if err := (external.Reach{Hosts: r.Hosts, Folders: r.Folders}).Check(); err != nil {
			return err
		}
	}
	old, err := st.AgentReaches()
	if err != nil {
		return err
	}
	for command := range old {
		if err := st.SetAgentReach(command, nil); err != nil {
			return err
		}
	}
	for command, r := range all {
		if err := st.SetAgentReach(command, &r); err != nil {
			return err
		}
	}
	return nil
}

// splitNames reads "A,B C" as a list of names; an empty value clears the list.
func splitNames(value string) []string {
	return strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' })
}

// splitEntries reads paths one a line or separated by commas; an empty value is an empty list.
func splitEntries(value string) []string {
	return append([]string{}, strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == '\n' })...)
}

// splitLines reads one command line per line; blank lines are skipped, an empty value clears.
func splitLines(value string) []string {
	out := []string{}
	for _, line := range strings.Split(value, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

func settingNames() []string {
	var out []string
	for k := range settingsTable() {
		out = append(out, k)
	}
	return sortedCopy(out)
}

func runSettings(c *Context, args []string) int {
	return runGroup(c, "settings", []subcommand{
		{name: "get", args: []string{"KEY"}, run: runSettingGet},
		{name: "set", args: []string{"KEY", "VALUE"}, run: runSettingSet},
	}, args)
}

func lookupSetting(key string) (setting, error) {
	s, ok := settingsTable()[key]
	if !ok {
		return setting{}, errs.Invalid("setting", key, settingNames())
	}
	return s, nil
}

func runSettingGet(c *Context, _ *flag.FlagSet, args []string) int {
	s, err := lookupSetting(args[0])
	if err != nil {
		return c.exitFor(err)
	}
	return c.withStore(func(st *store.Store) error {
		v, err := s.get(st)
		if err == nil {
			fmt.Fprintln(c.Stdout, v)
		}
		return err
	})
}

func runSettingSet(c *Context, _ *flag.FlagSet, args []string) int {
	s, err := lookupSetting(args[0])
	if err != nil {
		return c.exitFor(err)
	}
	return c.withStore(func(st *store.Store) error { return s.set(st, args[1]) })
}

func (c *Context) withStore(fn func(st *store.Store) error) int {
	st, err := store.Open(c.DataDir)
	if err != nil {
		return c.exitFor(err)
	}
	defer st.Close()
	if err := fn(st); err != nil {
		return c.exitFor(err)
	}
	return ExitOK
}
