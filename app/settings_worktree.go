package app

import (
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// GlobsRequest is a list of path globs (the sensitive list's syntax).
type GlobsRequest struct {
	Globs []string `json:"globs"`
}

// SetWorktreeCopy saves the globs naming the untracked or ignored files of the person's folder a
// new task's worktree gets a copy of; a glob that cannot be read or reaches out of the
// repository is refused.
func (f *Settings) SetWorktreeCopy(req GlobsRequest) (SettingsView, error) {
	if err := f.s.Store.SetWorktreeCopy(req.Globs); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// SetWorktreeSetup saves the person's own set-up command, run in every new task's worktree
// after the copy; empty runs none.
func (f *Settings) SetWorktreeSetup(req ValueRequest) (SettingsView, error) {
	cmd, err := session.ParseSetupCommand(req.Value)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetSetting(store.SettingWorktreeSetup, cmd); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

// worktreePrep is what Settings shows of a new worktree's preparation. A stored list that
// cannot be read shows (and copies) nothing.
func (s *Services) worktreePrep() (copyGlobs []string, setup string) {
	copyGlobs, err := s.Store.WorktreeCopy()
	if err != nil {
		copyGlobs = []string{}
	}
	return copyGlobs, store.SettingOr(s.Store, store.SettingWorktreeSetup, session.ParseSetupCommand, "")
}
