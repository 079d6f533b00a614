package store

import (
	"slices"
	"testing"
	"time"

	"agentdesk/backend/policy"
)

// insertOldRuleAndGrant writes a deny rule and a grant as a build before migration 13 did:
// today's code would also write the scripts column, which an older schema lacks.
func insertOldRuleAndGrant(t *testing.T, s *Store, sessionID string) {
	t.Helper()
	now := time.Now().UTC()
	err := s.db.Exec(`INSERT INTO rules (id, effect, kind, path, command, mcp, scope, source, created_at)
		VALUES ('old-rule', 'deny', '', 'secrets/**', '', '', '', 'settings', ?)`, now).Error
	if err == nil {
		err = s.db.Exec(`INSERT INTO grants (session_id, kind, path, command, mcp, scope, created_at)
			VALUES (?, 'bash', '', 'make', '', '', ?)`, sessionID, now).Error
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Rules and grants stored before script records existed move with an empty record (which the
// gate does not let hold on a command that runs a file); a record given now is kept with the
// grant and the rule, and read back by the gate.
func TestScriptRecordsMigrationKeepsRulesAndGrants(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:12], nil)
	if err != nil {
		t.Fatal(err)
	}
	a := newSession(t, old, "a")
	insertOldRuleAndGrant(t, old, a.ID)
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Migrated.From != 12 || s.Migrated.To != SupportedSchema() {
		t.Fatalf("migrated %+v", s.Migrated)
	}
	in, err := s.GateInputs(a.ID)
	if err != nil || len(in.Grants) != 1 || in.Grants[0].Command != "make" || in.Grants[0].Scripts != "" ||
		len(in.Rules) != 1 || in.Rules[0].Scripts != "" {
		t.Fatalf("after the move %+v %v", in, err)
	}
	record := "3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b  build.sh"
	g := policy.Grant{Kind: policy.KindBash, Command: "bash build.sh", Scope: policy.ScopeExact, Scripts: record}
	changed := g
	changed.Scripts = "0000000000000000000000000000000000000000000000000000000000000000  build.sh"
	for _, grant := range []policy.Grant{g, g, changed} {
		if err := s.AddGrant(a.ID, grant); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddRule(policy.Rule{Effect: policy.Allow, Kind: policy.KindBash, Command: "bash build.sh", Scripts: record}, "approval"); err != nil {
		t.Fatal(err)
	}
	grants, _ := s.Grants(a.ID)
	in, _ = s.GateInputs(a.ID)
	if !slices.Equal(grants, in.Grants) || len(grants) != 3 || grants[1] != g || grants[2] != changed {
		t.Fatalf("grants %+v, the gate read %+v", grants, in.Grants)
	}
	if len(in.Rules) != 2 || in.Rules[1].Scripts != record {
		t.Fatalf("rules the gate read: %+v", in.Rules)
	}
}

// Approved script texts are kept by digest, once each; a text over the bound is not kept.
func TestScriptTextsAreKeptByDigest(t *testing.T) {
	s, _ := openTemp(t)
	big := string(make([]byte, MaxScriptText+1))
	if err := s.KeepScriptTexts(map[string]string{"d1": "echo ok\n", "big": big}); err != nil {
		t.Fatal(err)
	}
	if err := s.KeepScriptTexts(map[string]string{"d1": "other"}); err != nil {
		t.Fatal(err)
	}
	if text, ok := s.ScriptText("d1"); !ok || text != "echo ok\n" {
		t.Fatalf("d1: %q %v", text, ok)
	}
	if _, ok := s.ScriptText("big"); ok {
		t.Fatal("a text over the bound was kept")
	}
	if _, ok := s.ScriptText("missing"); ok {
		t.Fatal("a missing text was found")
	}
}
