package cli

import (
	"strings"

	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// worktreeSettings are the settings keys of how a new task's worktree is prepared: the globs of
// untracked files copied into it, and the person's own set-up command run there.
func worktreeSettings() map[string]setting {
	return map[string]setting{
		"worktree-copy": {
			get: func(st *store.Store) (string, error) {
				globs, err := st.WorktreeCopy()
				return strings.Join(globs, ","), err
			},
			set: func(st *store.Store, value string) error { return st.SetWorktreeCopy(splitEntries(value)) },
		},
		"worktree-setup": {
			get: func(st *store.Store) (string, error) {
				return store.SettingOr(st, store.SettingWorktreeSetup, session.ParseSetupCommand, ""), nil
			},
			set: func(st *store.Store, value string) error {
				cmd, err := session.ParseSetupCommand(value)
				if err != nil {
					return err
				}
				return st.SetSetting(store.SettingWorktreeSetup, cmd)
			},
		},
	}
}
