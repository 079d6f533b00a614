package server

import (
	"context"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/errs"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree"
)

// ConfigWorktree is the id of the session config option that says where the session works: in
// the folder the editor opened ("folder"), or in a git worktree of its own on a branch named
// after it ("isolated"). It is offered only for a folder in a git repository; changing it hands
// the session over (session.Service.HandOff).
const ConfigWorktree = "worktree"

const (
	worktreeFolder   = "folder"
	worktreeIsolated = "isolated"
)

// worktreeOption is the option for sess, when its folder is in a git repository.
func (s *Server) worktreeOption(sess store.Session) (acp.SessionConfigOption, bool) {
	_, isolated, err := s.opts.Store.TaskWorktree(sess.ID)
	if err != nil {
		return acp.SessionConfigOption{}, false
	}
	if !isolated {
		if _, ok := worktree.TopOf(context.Background(), sess.Workspace); !ok {
			return acp.SessionConfigOption{}, false
		}
	}
	current := worktreeFolder
	if isolated {
		current = worktreeIsolated
	}
	values := acp.SessionConfigSelectOptionsUngrouped{}
	for _, v := range []string{worktreeFolder, worktreeIsolated} {
		values = append(values, acp.SessionConfigSelectOption{Value: acp.SessionConfigValueId(v),
			Name: s.t("acp.config.worktree."+v, nil), Description: acp.Ptr(s.t("acp.config.worktree."+v+".description", nil))})
	}
	return acp.SessionConfigOption{Select: &acp.SessionConfigOptionSelect{Id: ConfigWorktree, Name: s.t("acp.config.worktree", nil),
		CurrentValue: acp.SessionConfigValueId(current), Options: acp.SessionConfigSelectOptions{Ungrouped: &values}, Type: "select"}}, true
}

// setWorktree moves the session into its own worktree or back into the folder.
func (s *Server) setWorktree(ctx context.Context, sessionID, value string) error {
	if value != worktreeFolder && value != worktreeIsolated {
		return errs.Invalid("worktree", value, []string{worktreeFolder, worktreeIsolated})
	}
	_, isolated, err := s.opts.Store.TaskWorktree(sessionID)
	if err != nil || isolated == (value == worktreeIsolated) {
		return err
	}
	return (&session.Service{Store: s.opts.Store}).HandOff(ctx, sessionID, value == worktreeIsolated)
}
