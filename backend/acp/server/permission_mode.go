package server

import (
	"context"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
	"agentdesk/backend/session"
)

// ConfigPermission is the id of the session config option that carries the session's
// permission mode; it changes that session only, never the default in Settings.
const ConfigPermission = "permission"

// FullAccessDeclined: the client did not confirm Full access, so the permission is unchanged.
// Args: Current, the permission mode kept.
const FullAccessDeclined errs.Kind = "ACP_FULL_ACCESS_DECLINED"

// Option ids of the confirmation that Full access asks for.
const (
	OptFullAccess = "full_access"
	OptKeep       = "keep"
)

// permissionOption is the session's permission mode as a select, every mode with its name and
// what it lets run without asking. A stored retired spelling reads as what it means now, an
// unknown one as ask, as the gate reads it.
func (s *Server) permissionOption(stored string) acp.SessionConfigOption {
	current, _ := policy.DecodePermission(stored)
	values := acp.SessionConfigSelectOptionsUngrouped{}
	for _, p := range policy.PermissionModes {
		values = append(values, acp.SessionConfigSelectOption{Value: acp.SessionConfigValueId(p),
			Name: s.t(p.LabelKey(), nil), Description: acp.Ptr(s.t("acp.config.permission."+string(p), nil))})
	}
	return acp.SessionConfigOption{Select: &acp.SessionConfigOptionSelect{Id: ConfigPermission, Name: s.t("acp.config.permission", nil),
		CurrentValue: acp.SessionConfigValueId(current), Options: acp.SessionConfigSelectOptions{Ungrouped: &values}, Type: "select"}}
}

// setPermission sets the session's permission mode. Full access is put to the client first as
// a session/request_permission: only its allow turns it on; anything else leaves the session
// as it was and says so. Lowering never asks.
func (s *Server) setPermission(ctx context.Context, sessionID, raw string) error {
	p, err := policy.ParsePermission(raw)
	if err != nil {
		return err
	}
	sess, err := s.opts.Store.GetSession(sessionID)
	if err != nil {
		return err
	}
	current, _ := policy.DecodePermission(sess.PermissionMode)
	if p == current {
		return nil
	}
	if p.NeedsConfirmation() && !s.confirmFull(ctx, sessionID, current) {
		return errs.New(FullAccessDeclined, "Current", s.t(current.LabelKey(), nil))
	}
	_, err = (&session.Service{Store: s.opts.Store}).SetPermission(sessionID, string(p))
	return err
}

// confirmFull asks the client whether to turn on Full access for the session.
func (s *Server) confirmFull(ctx context.Context, sessionID string, current policy.PermissionMode) bool {
	s.out.flush() // what the session showed before comes first
	resp, err := s.conn.RequestPermission(ctx, acp.RequestPermissionRequest{SessionId: acp.SessionId(sessionID),
		ToolCall: acp.ToolCallUpdate{ToolCallId: acp.ToolCallId("permission_" + sessionID),
			Title: acp.Ptr(s.t("acp.permission.full_title", nil)), Kind: acp.Ptr(acp.ToolKindSwitchMode),
			Status:  acp.Ptr(acp.ToolCallStatusPending),
			Content: []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(s.t("acp.permission.full_text", nil)))}},
		Options: []acp.PermissionOption{
			{OptionId: OptFullAccess, Kind: acp.PermissionOptionKindAllowOnce, Name: s.t("acp.permission.full_allow", nil)},
			{OptionId: OptKeep, Kind: acp.PermissionOptionKindRejectOnce,
				Name: s.t("acp.permission.full_keep", map[string]any{"Current": s.t(current.LabelKey(), nil)})},
		}})
	return err == nil && resp.Outcome.Selected != nil && resp.Outcome.Selected.OptionId == OptFullAccess
}
