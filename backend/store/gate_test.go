package store

import (
	"slices"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// The gate's one read gives what the three separate reads give: the session's permission as
// Session.Permission folds it, every rule in list order (a damaged effect still reads as deny),
// and the session's own grants in order, none of another session's.
func TestGateInputsReadWhatTheGateNeeds(t *testing.T) {
	s, _ := openTemp(t)
	a, b := newSession(t, s, "a"), newSession(t, s, "b")
	if _, err := s.SetPermission(a.ID, policy.Auto); err != nil {
		t.Fatal(err)
	}
	for _, r := range []policy.Rule{{Effect: policy.Deny, Path: "secrets/**"}, {Effect: policy.Allow, Kind: policy.KindBash,
		Command: "make"}, {Effect: policy.Deny, Kind: policy.KindBash, Command: "rm *"}} {
		if _, err := s.AddRule(r, "settings"); err != nil {
			t.Fatal(err)
		}
	}
	rows, _ := s.Rules()
	s.db.Exec("UPDATE rules SET effect = 'Allow' WHERE id = ?", rows[2].ID) // damaged: must read as deny
	s.AddGrant(a.ID, policy.Grant{Kind: policy.KindWrite, Path: "src/**"})
	s.AddGrant(b.ID, policy.Grant{Kind: policy.KindBash, Command: "npm test"})
	s.AddGrant(a.ID, policy.Grant{Kind: policy.KindBash, Command: "go test ./..."})

	in, err := s.GateInputs(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := s.PolicyRules()
	grants, _ := s.Grants(a.ID)
	if in.Permission != policy.Auto || !slices.Equal(in.Rules, rules) || !slices.Equal(in.Grants, grants) {
		t.Fatalf("gate inputs %+v\nwant permission auto, rules %+v, grants %+v", in, rules, grants)
	}
	if len(in.Rules) != 3 || in.Rules[2].Effect != policy.Deny || len(in.Grants) != 2 || in.Grants[1].Command != "go test ./..." {
		t.Fatalf("gate inputs %+v", in)
	}
	if in, _ := s.GateInputs(b.ID); len(in.Grants) != 1 || in.Grants[0].Command != "npm test" || in.Permission != policy.Ask {
		t.Fatalf("inputs of b: %+v", in)
	}
}

// An unknown stored permission reads as ask, as everywhere; a missing session is NOT_FOUND.
func TestGateInputsFailClosed(t *testing.T) {
	s, _ := openTemp(t)
	a := newSession(t, s, "a")
	s.db.Exec("UPDATE sessions SET permission_mode = 'yolo' WHERE id = ?", a.ID)
	if in, err := s.GateInputs(a.ID); err != nil || in.Permission != policy.Ask {
		t.Fatalf("unknown permission: %+v %v", in, err)
	}
	if _, err := s.GateInputs("missing"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("missing session: %v", err)
	}
}
