package store

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// SettingExternalAgents is the Settings list of external ACP agent command lines (R-ACP-2),
// a JSON list of strings such as ["gemini --experimental-acp", "goose acp"].
const SettingExternalAgents = "acp.external_agents"

// ExternalAgents reads the saved command lines; none saved is an empty list.
func (s *Store) ExternalAgents() ([]string, error) {
	raw, ok, err := s.GetSetting(SettingExternalAgents)
	if err != nil || !ok {
		return []string{}, err
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return []string{}, errs.Wrap(errs.StoreFailure, err, "Path", SettingExternalAgents)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// SetExternalAgents replaces the saved command lines. Each is trimmed; an empty one is
// INVALID_INPUT and duplicates are kept once, in the order given.
func (s *Store) SetExternalAgents(commands []string) error {
	clean := []string{}
	for _, c := range commands {
		c = strings.TrimSpace(c)
		if c == "" {
			return errs.New(errs.InvalidInput, "Field", "command")
		}
		if !slices.Contains(clean, c) {
			clean = append(clean, c)
		}
	}
	body, err := json.Marshal(clean)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingExternalAgents, string(body))
}

// SetExternalAgent makes a session run on the external agent started by command, or on the
// built-in runtime when command is empty.
func (s *Store) SetExternalAgent(sessionID, command string) (Session, error) {
	err := s.write(func(tx *gorm.DB) error {
		return updateSession(tx, sessionID, map[string]any{"external_agent": strings.TrimSpace(command), "updated_at": time.Now().UTC()})
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(sessionID)
}

// ExternalAgent is the command line a session runs on; empty means the built-in runtime.
func (s *Store) ExternalAgent(sessionID string) (string, error) {
	sess, err := s.GetSession(sessionID)
	return sess.ExternalAgent, err
}
