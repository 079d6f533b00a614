package store

import (
	"encoding/json"
	"strings"

	"agentdesk/backend/errs"
)

// SettingAgentReach keeps, per saved agent command line, what the person let that agent reach
// from inside the sandbox: the hosts of its model traffic and its own state folders.
const SettingAgentReach = "acp.agent_reach"

// AgentReach is what one external agent may reach. An agent with none saved gets the defaults
// its name implies (backend/agent/external).
type AgentReach struct {
	Hosts   []string `json:"hosts"`
	Folders []string `json:"folders"`
}

// AgentReaches reads every saved reach. Unlike a fact, a reach widens what an agent may do, so an
// unreadable value is an error, never read as something else.
func (s *Store) AgentReaches() (map[string]AgentReach, error) {
	out := map[string]AgentReach{}
	raw, ok, err := s.GetSetting(SettingAgentReach)
	if err != nil || !ok {
		return out, err
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return map[string]AgentReach{}, errs.Wrap(errs.StoreFailure, err, "Path", SettingAgentReach)
	}
	return out, nil
}

// SavedAgentReach is the reach saved for the agent started by command; ok is false when the
// person saved none.
func (s *Store) SavedAgentReach(command string) (r AgentReach, ok bool, err error) {
	all, err := s.AgentReaches()
	if err != nil {
		return AgentReach{}, false, err
	}
	r, ok = all[strings.TrimSpace(command)]
	return r, ok, nil
}

// SetAgentReach saves what the agent started by command may reach; nil forgets it, so the
// defaults apply again.
func (s *Store) SetAgentReach(command string, r *AgentReach) error {
	s.factsMu.Lock()
	defer s.factsMu.Unlock()
	all, err := s.AgentReaches()
	if err != nil {
		return err
	}
	if command = strings.TrimSpace(command); r == nil {
		delete(all, command)
	} else {
		all[command] = AgentReach{Hosts: nonNil(r.Hosts), Folders: nonNil(r.Folders)}
	}
	body, err := json.Marshal(all)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingAgentReach, string(body))
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
