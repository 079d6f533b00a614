package store

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// GateInputs is what the gate reads about a session before every tool call: its permission,
// the Settings rules and its grants.
type GateInputs struct {
	// Permission is the session's permission as Session.Permission reads it: an unrecognized
	// value reads as ask.
	Permission policy.PermissionMode
	Rules      []policy.Rule
	Grants     []policy.Grant
}

// gateQuery reads the session's permission, every rule (in the order Rules lists them) and the
// session's grants (in the order Grants lists them) in one statement: one parse and one read
// transaction per tool call instead of three, and the three read at one instant. A row's
// first column says which it is.
const gateQuery = `SELECT 0, rowid, permission_mode, '', '', '', '', '', '' FROM sessions WHERE id = ?1
	UNION ALL SELECT 1, rowid, id, effect, kind, path, command, mcp, scope FROM rules
	UNION ALL SELECT 2, id, '', '', kind, path, command, mcp, scope FROM grants WHERE session_id = ?1
	ORDER BY 1, 2`

// GateInputs reads what the gate needs about a session, afresh; a missing session is NOT_FOUND.
func (s *Store) GateInputs(sessionID string) (GateInputs, error) {
	rows, err := s.db.Raw(gateQuery, sessionID).Rows()
	if err != nil {
		return GateInputs{}, s.fail(err)
	}
	defer rows.Close()
	var in GateInputs
	found := false
	for rows.Next() {
		var part, order int64
		var r RuleRow
		if err := rows.Scan(&part, &order, &r.ID, &r.Effect, &r.Kind, &r.Path, &r.Command, &r.MCP, &r.Scope); err != nil {
			return GateInputs{}, s.fail(err)
		}
		switch part {
		case 0:
			found = true
			in.Permission, _ = Session{PermissionMode: r.ID}.Permission()
		case 1:
			in.Rules = append(in.Rules, r.Rule())
		case 2:
			in.Grants = append(in.Grants, policy.Grant{Kind: policy.Kind(r.Kind), Path: r.Path, Command: r.Command,
				MCP: r.MCP, Scope: policy.Scope(r.Scope)})
		}
	}
	if err := rows.Err(); err != nil {
		return GateInputs{}, s.fail(err)
	}
	if !found {
		return GateInputs{}, errs.New(errs.NotFound, "ID", sessionID)
	}
	return in, nil
}
