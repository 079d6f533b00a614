package store

import (
	"encoding/json"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// SettingWorktreeCopy lists, as a JSON array of globs (the sensitive list's syntax), the
// untracked or ignored files of the person's folder a new task's worktree gets a copy of;
// unset means none.
const SettingWorktreeCopy = "worktree.copy"

// SettingWorktreeSetup is the person's own set-up command line, run in every new task's worktree
// after the copy; unset or empty means none.
const SettingWorktreeSetup = "worktree.setup"

// WorktreeCopy is the list of globs; a stored value that cannot be read copies nothing, and the
// error says so.
func (s *Store) WorktreeCopy() ([]string, error) {
	raw, ok, err := s.GetSetting(SettingWorktreeCopy)
	if err != nil || !ok {
		return []string{}, err
	}
	var globs []string
	if err := json.Unmarshal([]byte(raw), &globs); err != nil {
		return []string{}, errs.Wrap(errs.StoreFailure, err, "Path", SettingWorktreeCopy)
	}
	clean, err := policy.ParseRelativeGlobs("worktree-copy", globs)
	if err != nil {
		return []string{}, err
	}
	return clean, nil
}

// SetWorktreeCopy replaces the list, checked (policy.ParseRelativeGlobs); empty copies nothing.
func (s *Store) SetWorktreeCopy(globs []string) error {
	clean, err := policy.ParseRelativeGlobs("worktree-copy", globs)
	if err != nil {
		return err
	}
	body, err := json.Marshal(clean)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingWorktreeCopy, string(body))
}
