package store

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// RuleRow is a rule of the Settings list (R-DEC-4): "always allow" answers and hand-written
// deny rules. Source says where it came from (for example "approval" or "settings").
type RuleRow struct {
	ID        string `gorm:"primaryKey"`
	Effect    string
	Kind      string
	Path      string
	Command   string
	MCP       string
	Scope     string
	Scripts   string // what the command's scripts held when approved (migration 13)
	Source    string
	CreatedAt time.Time
}

// TableName is the table created by migration 3.
func (RuleRow) TableName() string { return "rules" }

// Rule reads the row as a policy rule. Only the exact spelling "allow" allows: a damaged or
// unknown effect reads as deny, so a bad row can narrow what runs but never widen it.
func (r RuleRow) Rule() policy.Rule {
	effect := policy.Deny
	if r.Effect == string(policy.Allow) {
		effect = policy.Allow
	}
	return policy.Rule{ID: r.ID, Effect: effect, Kind: policy.Kind(r.Kind), Path: r.Path, Command: r.Command,
		MCP: r.MCP, Scope: policy.Scope(r.Scope), Scripts: r.Scripts}
}

// grantRow is one "allow for this session" grant; it goes with its session by cascade.
type grantRow struct {
	ID        int64 `gorm:"primaryKey"`
	SessionID string
	Kind      string
	Path      string
	Command   string
	MCP       string
	Scope     string
	Scripts   string
	CreatedAt time.Time
}

func (grantRow) TableName() string { return "grants" }

// AddRule stores a rule under a fresh id. Only canonical effects are written.
func (s *Store) AddRule(r policy.Rule, source string) (RuleRow, error) {
	r = trimRule(r)
	if r.Effect != policy.Allow && r.Effect != policy.Deny {
		return RuleRow{}, errs.Invalid("effect", string(r.Effect), []string{string(policy.Allow), string(policy.Deny)})
	}
	if err := checkPattern(r.Kind, r.Path, r.Command, r.MCP); err != nil {
		return RuleRow{}, err
	}
	if err := checkScope(r.Scope, r.Path, r.Command, r.MCP); err != nil {
		return RuleRow{}, err
	}
	if r.Effect == policy.Allow && r.Kind.AsksAlways() {
		return RuleRow{}, askedEveryTime(r.Kind)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return RuleRow{}, errs.Wrap(errs.Internal, err)
	}
	row := RuleRow{ID: id.String(), Effect: string(r.Effect), Kind: string(r.Kind), Path: r.Path,
		Command: r.Command, MCP: r.MCP, Scope: string(r.Scope), Scripts: r.Scripts, Source: source, CreatedAt: time.Now().UTC()}
	if err := s.write(func(tx *gorm.DB) error { return tx.Create(&row).Error }); err != nil {
		return RuleRow{}, err
	}
	return row, nil
}

// Rules lists the Settings rules, oldest first.
func (s *Store) Rules() ([]RuleRow, error) {
	var out []RuleRow
	err := s.db.Order("rowid").Find(&out).Error
	return out, s.fail(err)
}

// PolicyRules lists the rules as the gate reads them.
func (s *Store) PolicyRules() ([]policy.Rule, error) {
	rows, err := s.Rules()
	if err != nil {
		return nil, err
	}
	out := make([]policy.Rule, len(rows))
	for i, r := range rows {
		out[i] = r.Rule()
	}
	return out, nil
}

// DeleteRule revokes a rule.
func (s *Store) DeleteRule(id string) error {
	return s.write(func(tx *gorm.DB) error {
		res := tx.Where("id = ?", id).Delete(&RuleRow{})
		if res.Error == nil && res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", id)
		}
		return res.Error
	})
}

// AddGrant records "allow for this session". Granting the same thing twice keeps one row.
func (s *Store) AddGrant(sessionID string, g policy.Grant) error {
	g = policy.Grant{Kind: g.Kind, Path: strings.TrimSpace(g.Path), Command: strings.TrimSpace(g.Command),
		MCP: strings.TrimSpace(g.MCP), Scope: g.Scope, Scripts: g.Scripts}
	if err := checkPattern(g.Kind, g.Path, g.Command, g.MCP); err != nil {
		return err
	}
	if err := checkScope(g.Scope, g.Path, g.Command, g.MCP); err != nil {
		return err
	}
	if g.Kind.AsksAlways() {
		return askedEveryTime(g.Kind)
	}
	row := grantRow{SessionID: sessionID, Kind: string(g.Kind), Path: g.Path, Command: g.Command, MCP: g.MCP,
		Scope: string(g.Scope), Scripts: g.Scripts, CreatedAt: time.Now().UTC()}
	return s.write(func(tx *gorm.DB) error {
		var n int64
		err := tx.Model(&grantRow{}).Where("session_id = ? AND kind = ? AND path = ? AND command = ? AND mcp = ? AND scope = ? AND scripts = ?",
			sessionID, row.Kind, row.Path, row.Command, row.MCP, row.Scope, row.Scripts).Count(&n).Error
		if err != nil || n > 0 {
			return err
		}
		fresh := row
		err = tx.Create(&fresh).Error
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return errs.Wrap(errs.NotFound, err, "ID", sessionID)
		}
		return err
	})
}

// Grants lists a session's grants, oldest first. They never leave their session.
func (s *Store) Grants(sessionID string) ([]policy.Grant, error) {
	var rows []grantRow
	if err := s.db.Where("session_id = ?", sessionID).Order("id").Find(&rows).Error; err != nil {
		return nil, s.fail(err)
	}
	out := make([]policy.Grant, len(rows))
	for i, r := range rows {
		out[i] = policy.Grant{Kind: policy.Kind(r.Kind), Path: r.Path, Command: r.Command, MCP: r.MCP, Scope: policy.Scope(r.Scope),
			Scripts: r.Scripts}
	}
	return out, nil
}

// askedEveryTime refuses an allow rule or grant for a kind the gate asks about every time
// (fetch, a call of unknown kind): Settings would list it, but the gate would never apply it.
func askedEveryTime(k policy.Kind) error {
	var kinds []policy.Kind
	for _, kind := range policy.Kinds {
		if !kind.AsksAlways() {
			kinds = append(kinds, kind)
		}
	}
	return errs.Invalid("kind", string(k), kindNames(kinds))
}

func trimRule(r policy.Rule) policy.Rule {
	r.Path, r.Command, r.MCP = strings.TrimSpace(r.Path), strings.TrimSpace(r.Command), strings.TrimSpace(r.MCP)
	return r
}

// checkPattern refuses a rule or grant that would match everything (nothing named at all) or
// nothing (a pattern its kind never carries), so what Settings lists is what the gate applies.
func checkPattern(k policy.Kind, path, command, mcp string) error {
	if k == "" && path == "" && command == "" && mcp == "" {
		return errs.New(errs.InvalidInput, "Field", "rule")
	}
	if k != "" && !slices.Contains(policy.Kinds, k) {
		return errs.Invalid("kind", string(k), kindNames(policy.Kinds))
	}
	if mcp != "" || k == policy.KindMCP {
		return checkMCPPattern(k, path, command, mcp)
	}
	switch {
	case path != "" && command != "":
		return errs.Invalid("rule", path+" | "+command, []string{"path", "command"})
	case path != "" && k != "" && !k.HasPath():
		return errs.Invalid("kind", string(k), kindNames([]policy.Kind{policy.KindRead, policy.KindWrite, policy.KindEdit}))
	case command != "" && k != "" && k != policy.KindBash:
		return errs.Invalid("kind", string(k), []string{string(policy.KindBash)})
	}
	return nil
}

// checkMCPPattern refuses an MCP pattern on another kind, beside a path or command, or one that
// names no server.
func checkMCPPattern(k policy.Kind, path, command, mcp string) error {
	switch {
	case k != "" && k != policy.KindMCP:
		return errs.Invalid("kind", string(k), []string{string(policy.KindMCP)})
	case path != "" || command != "":
		return errs.Invalid("rule", strings.Join([]string{path, command, mcp}, " | "), []string{"path", "command", "mcp"})
	case mcp == "":
		return nil
	}
	if p, ok := policy.ParseMCPRule(mcp); !ok || p != mcp {
		return errs.Invalid("mcp", mcp, []string{"server/tool", "server/*", "server"})
	}
	return nil
}

// checkScope refuses a scope this build does not know, and one that does not fit the pattern:
// a prefix is for commands, a pattern for paths and MCP tools.
func checkScope(scope policy.Scope, path, command, mcp string) error {
	allowed := []string{string(policy.ScopeExact), string(policy.ScopePrefix), string(policy.ScopePattern)}
	switch {
	case scope == "" || scope == policy.ScopeExact:
		return nil
	case scope == policy.ScopePrefix && command != "", scope == policy.ScopePattern && (path != "" || mcp != ""):
		return nil
	}
	return errs.Invalid("scope", string(scope), allowed)
}

func kindNames(ks []policy.Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}

// MaxScriptText bounds the approved script text kept for a diff; a larger one is not kept.
const MaxScriptText = 64 << 10

// KeepScriptTexts keeps approved script texts by their SHA-256 (hex), for the diff shown when
// the script changed; texts over MaxScriptText and digests already kept are skipped.
func (s *Store) KeepScriptTexts(texts map[string]string) error {
	now := time.Now().UTC()
	return s.write(func(tx *gorm.DB) error {
		for digest, content := range texts {
			if len(content) > MaxScriptText {
				continue
			}
			err := tx.Exec(`INSERT INTO script_texts (digest, content, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
				digest, content, now).Error
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// ScriptText is the approved text of digest, if it was kept.
func (s *Store) ScriptText(digest string) (string, bool) {
	var rows []struct{ Content string }
	if err := s.db.Raw(`SELECT content FROM script_texts WHERE digest = ?`, digest).Scan(&rows).Error; err != nil || len(rows) == 0 {
		return "", false
	}
	return rows[0].Content, true
}
