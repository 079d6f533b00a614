package store

import (
	"sync"

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

	sessionID string
	epoch     int64 // gate_epoch when these were read: what a GateCache compares
}

// gateQuery reads the session's permission, every rule (in the order Rules lists them), the
// session's grants (in the order Grants lists them) and the gate's change counter in one
// statement: one parse and one read transaction instead of four, all read at one instant. A
// row's first column says which it is.
const gateQuery = `SELECT 0, rowid, permission_mode, '', '', '', '', '', '', '' FROM sessions WHERE id = ?1
	UNION ALL SELECT 1, rowid, id, effect, kind, path, command, mcp, scope, scripts FROM rules
	UNION ALL SELECT 2, id, '', '', kind, path, command, mcp, scope, scripts FROM grants WHERE session_id = ?1
	UNION ALL SELECT 3, n, '', '', '', '', '', '', '', '' FROM gate_epoch
	ORDER BY 1, 2`

// GateInputs reads what the gate needs about a session, afresh; a missing session is NOT_FOUND.
func (s *Store) GateInputs(sessionID string) (GateInputs, error) {
	rows, err := s.db.Raw(gateQuery, sessionID).Rows()
	if err != nil {
		return GateInputs{}, s.fail(err)
	}
	defer rows.Close()
	in := GateInputs{sessionID: sessionID}
	found := false
	for rows.Next() {
		var part, order int64
		var r RuleRow
		if err := rows.Scan(&part, &order, &r.ID, &r.Effect, &r.Kind, &r.Path, &r.Command, &r.MCP, &r.Scope, &r.Scripts); err != nil {
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
				MCP: r.MCP, Scope: policy.Scope(r.Scope), Scripts: r.Scripts})
		case 3:
			in.epoch = order
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

// GateCache keeps one session's gate inputs between tool calls (a turn's), exactly: before
// each call it reads the gate's change counter alone, which every change to a permission, a
// rule or a grant moves in its own transaction (migration 11, whoever writes it), and reads
// the inputs again only when the counter moved. So the next call sees a change as it would
// reading everything afresh, for a tenth of the work. The zero value is empty; it is safe for
// concurrent use (an external agent's calls are gated from several goroutines).
type GateCache struct {
	mu    sync.Mutex
	in    GateInputs
	held  bool
	reads int // full reads, for tests
}

// GateInputsCached is GateInputs through c: the same answer, from c while nothing it holds
// changed.
func (s *Store) GateInputsCached(c *GateCache, sessionID string) (GateInputs, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held && c.in.sessionID == sessionID {
		var epoch int64
		if err := s.db.ConnPool.QueryRowContext(s.db.Statement.Context, `SELECT n FROM gate_epoch`).Scan(&epoch); err != nil {
			return GateInputs{}, s.fail(err)
		}
		if epoch == c.in.epoch {
			return c.in, nil
		}
	}
	in, err := s.GateInputs(sessionID)
	if err != nil {
		c.held = false
		return GateInputs{}, err
	}
	c.in, c.held = in, true
	c.reads++
	return in, nil
}
