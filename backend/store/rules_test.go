package store

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

func TestRulesAddListDelete(t *testing.T) {
	s, _ := openTemp(t)
	allow, err := s.AddRule(policy.Rule{ID: "ignored", Effect: policy.Allow, Kind: policy.KindBash, Command: " git status "}, "approval")
	if err != nil {
		t.Fatal(err)
	}
	deny, err := s.AddRule(policy.Rule{Effect: policy.Deny, Path: "secrets/**"}, "settings")
	if err != nil {
		t.Fatal(err)
	}
	if allow.ID == "ignored" || allow.ID == "" || allow.Command != "git status" || allow.CreatedAt.IsZero() {
		t.Fatalf("added: %+v", allow)
	}
	rows, _ := s.Rules()
	if len(rows) != 2 || rows[0].ID != allow.ID || rows[1].ID != deny.ID || rows[0].Source != "approval" {
		t.Fatalf("rules: %+v", rows)
	}
	got, _ := s.PolicyRules()
	want := policy.Rule{ID: allow.ID, Effect: policy.Allow, Kind: policy.KindBash, Command: "git status"}
	if got[0] != want {
		t.Fatalf("policy rule: %+v", got[0])
	}
	if err := s.DeleteRule(allow.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRule(allow.ID); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("deleting twice: %v", err)
	}
	if rows, _ := s.Rules(); len(rows) != 1 || rows[0].ID != deny.ID {
		t.Fatalf("after delete: %+v", rows)
	}
}

// A damaged effect never widens: only "allow" spelled exactly allows.
func TestUnknownEffectReadsAsDeny(t *testing.T) {
	s, _ := openTemp(t)
	r, _ := s.AddRule(policy.Rule{Effect: policy.Allow, Kind: policy.KindBash, Command: "make"}, "approval")
	for _, stored := range []string{"Allow", "always", "", "allow "} {
		if err := s.db.Exec("UPDATE rules SET effect = ? WHERE id = ?", stored, r.ID).Error; err != nil {
			t.Fatal(err)
		}
		got, _ := s.PolicyRules()
		if got[0].Effect != policy.Deny {
			t.Fatalf("effect %q read as %q", stored, got[0].Effect)
		}
	}
}

func TestRulesRefuseWhatTheGateWouldMisread(t *testing.T) {
	s, _ := openTemp(t)
	cases := map[string]struct {
		rule policy.Rule
		kind errs.Kind
	}{
		"unknown effect":      {policy.Rule{Effect: "maybe", Kind: policy.KindBash}, errs.InvalidValue},
		"names nothing":       {policy.Rule{Effect: policy.Allow}, errs.InvalidInput},
		"unknown kind":        {policy.Rule{Effect: policy.Allow, Kind: "shell"}, errs.InvalidValue},
		"path and command":    {policy.Rule{Effect: policy.Deny, Path: "a", Command: "b"}, errs.InvalidValue},
		"path on bash":        {policy.Rule{Effect: policy.Allow, Kind: policy.KindBash, Path: "a"}, errs.InvalidValue},
		"command on write":    {policy.Rule{Effect: policy.Allow, Kind: policy.KindWrite, Command: "ls"}, errs.InvalidValue},
		"blank pattern alone": {policy.Rule{Effect: policy.Allow, Path: "  "}, errs.InvalidInput},
	}
	for name, c := range cases {
		if _, err := s.AddRule(c.rule, "settings"); errs.KindOf(err) != c.kind {
			t.Errorf("%s: %v, want %s", name, err, c.kind)
		}
	}
	if rows, _ := s.Rules(); len(rows) != 0 {
		t.Fatalf("a refused rule was stored: %+v", rows)
	}
}

// "Allow for this session" never leaves the session, and goes when it goes.
func TestGrantsStayInTheirSession(t *testing.T) {
	s, _ := openTemp(t)
	a, b := newSession(t, s, "a"), newSession(t, s, "b")
	g := policy.Grant{Kind: policy.KindBash, Command: "npm test"}
	if err := s.AddGrant(a.ID, g); err != nil {
		t.Fatal(err)
	}
	if err := s.AddGrant(a.ID, g); err != nil {
		t.Fatal(err)
	}
	s.AddGrant(a.ID, policy.Grant{Kind: policy.KindWrite, Path: "src/**"})
	got, _ := s.Grants(a.ID)
	if len(got) != 2 || got[0] != g || got[1].Path != "src/**" {
		t.Fatalf("grants of a: %+v", got)
	}
	if other, _ := s.Grants(b.ID); len(other) != 0 {
		t.Fatalf("a grant leaked into another session: %+v", other)
	}
	if err := s.AddGrant("missing", g); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("grant for a missing session: %v", err)
	}
	if err := s.AddGrant(a.ID, policy.Grant{}); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("an empty grant would allow everything: %v", err)
	}
	s.DeleteSession(a.ID)
	var left int64
	s.db.Table("grants").Count(&left)
	if left != 0 {
		t.Fatalf("%d grants outlived their session", left)
	}
}

func TestNoAllowRuleOrGrantForWhatAlwaysAsks(t *testing.T) {
	s, _ := openTemp(t)
	sess, err := s.CreateSession(NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []policy.Kind{policy.KindFetch, policy.KindOther} {
		if _, err := s.AddRule(policy.Rule{Effect: policy.Allow, Kind: k}, "approval"); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("allow rule for %s: %v", k, err)
		}
		if err := s.AddGrant(sess.ID, policy.Grant{Kind: k}); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("grant for %s: %v", k, err)
		}
	}
	if _, err := s.AddRule(policy.Rule{Effect: policy.Deny, Kind: policy.KindFetch}, "settings"); err != nil {
		t.Errorf("a deny rule on fetch is what the gate applies: %v", err)
	}
}
