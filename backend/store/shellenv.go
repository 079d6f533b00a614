package store

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"agentdesk/backend/errs"
)

// SettingShellPassEnv lists environment variables the shell keeps although their names look
// like secrets (…KEY…, …TOKEN…): the person's explicit choice in Settings.
const SettingShellPassEnv = "shell_env_passthrough"

// envName is what a variable name may be; anything else cannot name a variable to pass.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ShellPassEnv lists the names the shell keeps; empty by default.
func (s *Store) ShellPassEnv() ([]string, error) {
	raw, ok, err := s.GetSetting(SettingShellPassEnv)
	if err != nil || !ok {
		return []string{}, err
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return []string{}, errs.Wrap(errs.StoreFailure, err, "Path", SettingShellPassEnv)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// SetShellPassEnv replaces the list. Each name is trimmed and must be a valid variable name;
// duplicates are kept once, in the order given.
func (s *Store) SetShellPassEnv(names []string) error {
	clean := []string{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !envName.MatchString(n) {
			return errs.Invalid("variable", n, []string{"NAME_LIKE_THIS"})
		}
		if !slices.Contains(clean, n) {
			clean = append(clean, n)
		}
	}
	body, err := json.Marshal(clean)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingShellPassEnv, string(body))
}
