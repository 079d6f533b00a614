// Package session is the one write path for sessions: every caller (desktop binding, browser
// bridge, CLI, ACP) creates and configures sessions here, so every value is validated by the
// same functions and only canonical values reach the store (R-DATA-2, R-MODE-7).
package session

import (
	"context"
	"path/filepath"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/store"
	"agentdesk/backend/workspace"
	"agentdesk/backend/worktree"
)

// Service creates, configures and reads sessions over the store.
type Service struct {
	Store *store.Store
	// Publish, when set, tells the windows what changed that no other event says (the count
	// of a task's files not applied); nil publishes nothing.
	Publish func(name string, data any)
}

// CreateInput asks for a new session. Omitted mode fields mean plain Smart; an omitted
// permission means the default in force at create time (R-AUTH-2). ExternalAgent, when set, is
// the external ACP agent the session runs on; the caller has checked it against Settings.
type CreateInput struct {
	Title         string
	Workspace     string
	Mode          mode.FollowUpInput
	Permission    *string
	ExternalAgent string
	// ConfirmHome is the person's explicit consent to give the agent the whole home folder;
	// without it the home folder is refused with workspace.HomeNeedsConfirmation.
	ConfirmHome bool
	// Isolated runs the session in a worktree of its own of the repository holding Workspace,
	// on a branch named after the title (backend/worktree); Carry brings the folder's
	// uncommitted changes along.
	Isolated bool
	Carry    bool
}

// Create validates and stores a new session.
func (s *Service) Create(in CreateInput) (View, error) {
	if in.Mode.Temporary {
		return View{}, errs.New(errs.InvalidInput, "Field", "temporary")
	}
	fu, err := mode.ValidateFollowUp(mode.Default, in.Mode)
	if err != nil {
		return View{}, err
	}
	perm, err := parsePermission(in.Permission)
	if err != nil {
		return View{}, err
	}
	dir, err := workspace.Resolve(in.Workspace, in.ConfirmHome)
	if err != nil {
		return View{}, err
	}
	row, err := s.Store.CreateSession(store.NewSession{Title: in.Title, Workspace: dir, Preference: &fu.Preference,
		Permission: perm, ExternalAgent: in.ExternalAgent})
	if err != nil {
		return View{}, err
	}
	if in.Isolated {
		if err := s.isolate(row, in.Carry); err != nil {
			_ = s.Store.DeleteSession(row.ID) // the session never exists without its worktree
			return View{}, err
		}
	}
	return s.View(row.ID)
}

// isolate gives a new session a worktree of its own and moves it there.
func (s *Service) isolate(row store.Session, carry bool) error {
	ctx := context.Background()
	t, err := worktree.Create(ctx, row.Workspace, worktree.RootFor(filepath.Dir(s.Store.Path())), row.ID, row.Title, carry)
	if err != nil {
		return err
	}
	w := store.TaskWorktree{SessionID: row.ID, Repo: t.Repo, Common: t.Common, Path: t.Path, GitDir: t.GitDir,
		Branch: t.Branch, Base: t.Base}
	if err := s.Store.MoveToWorktree(w); err != nil {
		_, _ = worktree.Remove(ctx, t)
		return err
	}
	if err := s.copyUntracked(ctx, t); err != nil {
		_, _ = worktree.Remove(ctx, t)
		return err
	}
	return nil
}

// copyUntracked copies the files the person's worktree-copy setting names into the new
// worktree, and records what it copied and skipped in the session's log.
func (s *Service) copyUntracked(ctx context.Context, t worktree.Task) error {
	globs, err := s.Store.WorktreeCopy()
	if err != nil || len(globs) == 0 {
		return err
	}
	in, err := s.Store.GateInputs(t.ID)
	if err != nil {
		return err
	}
	guard := worktree.Guard{Rules: in.Rules}
	guard.Sensitive, _ = s.Store.SensitivePaths() // unreadable reads as the default list: the strict one
	copied, err := worktree.CopyUntracked(ctx, t, globs, guard)
	if err != nil {
		return err
	}
	rec := eventlog.WorktreeCopied{Files: copied.Files, LeftOver: copied.LeftOver}
	for _, sk := range copied.Skipped {
		rec.Skipped = append(rec.Skipped, eventlog.SkippedFile{Path: sk.Path, Reason: sk.Reason})
	}
	_, err = s.Store.AppendStep(t.ID, rec)
	return err
}

// Configure changes a session's interaction preference for its next message. A temporary
// override is never saved (R-MODE-6), so it is refused here.
func (s *Service) Configure(id string, in mode.FollowUpInput) (View, error) {
	if in.Temporary {
		return View{}, errs.New(errs.InvalidInput, "Field", "temporary")
	}
	current, err := s.Store.ModeInForce(id)
	if err != nil {
		return View{}, err
	}
	fu, err := mode.ValidateFollowUp(current.Preference, in)
	if err != nil {
		return View{}, err
	}
	if fu.Save {
		if _, err := s.Store.Configure(id, fu.Preference); err != nil {
			return View{}, err
		}
	}
	return s.View(id)
}

// SetPermission changes one session's permission mode, never the default (R-AUTH-3).
func (s *Service) SetPermission(id, raw string) (View, error) {
	p, err := policy.ParsePermission(raw)
	if err != nil {
		return View{}, err
	}
	if _, err := s.Store.SetPermission(id, p); err != nil {
		return View{}, err
	}
	return s.View(id)
}

func parsePermission(raw *string) (*policy.PermissionMode, error) {
	if raw == nil {
		return nil, nil
	}
	p, err := policy.ParsePermission(*raw)
	if err != nil {
		return nil, err
	}
	return &p, nil
}
