// Package session is the one write path for sessions: every caller (desktop binding, browser
// bridge, CLI, ACP) creates and configures sessions here, so every value is validated by the
// same functions and only canonical values reach the store (R-DATA-2, R-MODE-7).
package session

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/store"
	"agentdesk/backend/workspace"
)

// Service creates, configures and reads sessions over the store.
type Service struct {
	Store *store.Store
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
	return s.View(row.ID)
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
