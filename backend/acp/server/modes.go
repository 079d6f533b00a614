package server

import (
	"context"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// ConfigMode is the id of the session config option that carries the mode (category "mode").
const ConfigMode = "mode"

// preferenceOf is the preference a selector id stands for.
func preferenceOf(id string) (mode.Preference, error) {
	in, err := external.ModeInput(id)
	if err != nil {
		return mode.Preference{}, err
	}
	fu, err := mode.ValidateFollowUp(mode.Default, in)
	return fu.Preference, err
}

// modes is what session/new and session/load advertise: every mode with its localized name
// ("Smart", "Chat", "Smart · Plan", …) and the one in force, as modes and as the config option.
// A session on an external agent does not offer Chat (R-ACP-2).
func (s *Server) modes(sessionID string) (*acp.SessionModeState, []acp.SessionConfigOption, error) {
	sess, err := s.opts.Store.GetSession(sessionID)
	if err != nil {
		return nil, nil, err
	}
	state, err := s.opts.Store.ModeInForce(sessionID)
	if err != nil {
		return nil, nil, err
	}
	current := external.ModeID(state.Preference)
	out := &acp.SessionModeState{CurrentModeId: acp.SessionModeId(current), AvailableModes: []acp.SessionMode{}}
	values := acp.SessionConfigSelectOptionsUngrouped{}
	for _, id := range external.ModeIDs() {
		if id == string(mode.Chat) && sess.ExternalAgent != "" {
			continue
		}
		p, err := preferenceOf(id)
		if err != nil {
			return nil, nil, err
		}
		name := s.t(p.LabelKey(), nil)
		desc := s.t("acp.mode.description."+id, nil)
		out.AvailableModes = append(out.AvailableModes, acp.SessionMode{Id: acp.SessionModeId(id), Name: name, Description: &desc})
		values = append(values, acp.SessionConfigSelectOption{Value: acp.SessionConfigValueId(id), Name: name, Description: acp.Ptr(desc)})
	}
	option := acp.SessionConfigOption{Select: &acp.SessionConfigOptionSelect{Id: ConfigMode, Name: s.t("acp.config.mode", nil),
		Category: acp.Ptr(acp.SessionConfigOptionCategoryMode), CurrentValue: acp.SessionConfigValueId(current),
		Options: acp.SessionConfigSelectOptions{Ungrouped: &values}, Type: "select"}}
	options := []acp.SessionConfigOption{option, s.permissionOption(sess.PermissionMode)}
	if w, ok := s.worktreeOption(sess); ok {
		options = append(options, w)
	}
	return out, options, nil
}

// SetSessionMode switches through the one validator (rt.Configure): an unknown id is an error
// and changes nothing. It replies, then sends current_mode_update; while a turn runs the
// switch is queued to the boundary (R-MODE-5) and the update goes out when it applies.
func (s *Server) SetSessionMode(ctx context.Context, req acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	id := string(req.SessionId)
	if err := s.setMode("session/set_mode", id, string(req.ModeId)); err != nil {
		s.replies.forget("session/set_mode", id)
		return acp.SetSessionModeResponse{}, s.fail(err)
	}
	return acp.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption sets the mode (the config-option form of set_mode) or the session's
// permission mode.
func (s *Server) SetSessionConfigOption(ctx context.Context, req acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	v := req.ValueId
	if v == nil || (string(v.ConfigId) != ConfigMode && string(v.ConfigId) != ConfigPermission && string(v.ConfigId) != ConfigWorktree) {
		configID := ""
		if v != nil {
			configID = string(v.ConfigId)
		} else if req.Boolean != nil {
			configID = string(req.Boolean.ConfigId)
		}
		return acp.SetSessionConfigOptionResponse{}, s.fail(errs.Invalid("configId", configID, []string{ConfigMode, ConfigPermission, ConfigWorktree}))
	}
	id := string(v.SessionId)
	if string(v.ConfigId) == ConfigWorktree {
		s.replies.forget("session/set_config_option", id)
		if err := s.setWorktree(ctx, id, string(v.Value)); err != nil {
			return acp.SetSessionConfigOptionResponse{}, s.fail(err)
		}
	} else if string(v.ConfigId) == ConfigPermission {
		// Nothing is announced after this reply: its configOptions say the permission in force.
		s.replies.forget("session/set_config_option", id)
		if err := s.setPermission(ctx, id, string(v.Value)); err != nil {
			return acp.SetSessionConfigOptionResponse{}, s.fail(err)
		}
	} else if err := s.setMode("session/set_config_option", id, string(v.Value)); err != nil {
		s.replies.forget("session/set_config_option", id)
		return acp.SetSessionConfigOptionResponse{}, s.fail(err)
	}
	_, options, err := s.modes(id)
	if err != nil {
		return acp.SetSessionConfigOptionResponse{}, s.fail(err)
	}
	return acp.SetSessionConfigOptionResponse{ConfigOptions: options}, nil
}

// setMode applies or queues a switch. The session.mode event the runtime publishes for an
// immediate switch is held back and announced after the reply instead.
func (s *Server) setMode(method, sessionID, modeID string) error {
	in, err := external.ModeInput(modeID)
	if err != nil {
		return err
	}
	target, err := preferenceOf(modeID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.setting[sessionID] = target
	s.mu.Unlock()
	queued, err := s.opts.Runtime.Configure(sessionID, in)
	s.caughtUp() // the session.mode that Configure published is seen while it is held back
	s.mu.Lock()
	delete(s.setting, sessionID)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if queued { // announced by the session.mode event when the switch applies
		s.replies.forget(method, sessionID)
		return nil
	}
	announce := func() { s.out.push(func() { s.announceMode(sessionID) }) }
	if !s.replies.after(method, sessionID, announce) {
		announce()
	}
	return nil
}

// caughtUp waits, briefly, until onEvent has handled what the runtime published so far.
func (s *Server) caughtUp() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.events.Sync(ctx)
}

// announceMode sends the mode in force as current_mode_update and config_option_update.
func (s *Server) announceMode(sessionID string) {
	modes, options, err := s.modes(sessionID)
	if err != nil {
		return
	}
	s.send(sessionID, acp.SessionUpdate{CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: modes.CurrentModeId}})
	s.send(sessionID, acp.SessionUpdate{ConfigOptionUpdate: &acp.SessionConfigOptionUpdate{ConfigOptions: options}})
}
