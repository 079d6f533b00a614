package store

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// The git escalation's grant and a host's grant are kept once each, next to the session's
// other grants, and the gate's inputs carry them; a host rule lands in the Settings list.
func TestMarkerGrantsAndHostRules(t *testing.T) {
	s, _ := openTemp(t)
	sess := newSession(t, s, "hosts")
	for range 2 {
		if err := s.AddGitWriteGrant(sess.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.AddHostGrant(sess.ID, "Registry.NPMjs.org."); err != nil {
			t.Fatal(err)
		}
	}
	grants, err := s.Grants(sess.ID)
	if err != nil || len(grants) != 2 || grants[0].Kind != policy.KindGitWrite ||
		grants[1].Kind != policy.KindHost || grants[1].Command != "registry.npmjs.org" {
		t.Fatalf("grants %+v %v", grants, err)
	}
	if _, err := s.AddHostRule("files.pythonhosted.org", "settings"); err != nil {
		t.Fatal(err)
	}
	in, err := s.GateInputs(sess.ID)
	if err != nil || !policy.HostApproved(in.Grants, in.Rules, "files.pythonhosted.org") ||
		!policy.HostApproved(in.Grants, in.Rules, "registry.npmjs.org") || policy.HostApproved(in.Grants, in.Rules, "evil.test") {
		t.Fatalf("gate inputs %+v %v", in, err)
	}
	for _, bad := range []string{"", "a b", "x;rm", "http://x"} {
		if err := s.AddHostGrant(sess.ID, bad); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("host %q: %v", bad, err)
		}
	}
	if err := s.AddHostGrant("no-such-session", "example.com"); errs.KindOf(err) != errs.NotFound {
		t.Errorf("a grant for a missing session: %v", err)
	}
}
