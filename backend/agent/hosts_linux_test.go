//go:build linux

package agent

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
)

// A command reaches a host only after the person approved it in the composer, while the
// connection waits; "allow for this session" answers the next command's connection too, and a
// declined host is refused with a reason the model can read. (The names do not resolve: what
// is checked here is who decides, not the transfer.)
func TestAHostIsAskedOnceAndAllowedForTheSession(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatalf("namespaces should work here: %s", sandbox.Status().Reason)
	}
	curl := func(host string) string {
		return `{"name":"bash","input":{"command":"curl -sS --max-time 5 http://` + host + `/ 2>&1; true"}}`
	}
	h := newHarness(t, script(
		`{"tool_calls":[`+curl("approved.invalid")+`,`+curl("approved.invalid")+`,`+curl("declined.invalid")+`]}`,
		`{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
	var mu sync.Mutex
	var asked []string
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		var p decision.ApprovalPayload
		if err := json.Unmarshal(d.Payload, &p); err != nil || p.Kind != string(policy.KindHost) {
			t.Errorf("an unexpected decision: %s %v", d.Payload, err)
			return nil
		}
		mu.Lock()
		asked = append(asked, p.Summary)
		mu.Unlock()
		res := decision.Approval(decision.AllowSession, "")
		if p.Summary == "declined.invalid" {
			res = decision.Approval(decision.Reject, "not this one")
		}
		return &res
	})
	h.send("fetch", mode.FollowUpInput{})
	if strings.Join(asked, ",") != "approved.invalid,declined.invalid" {
		t.Fatalf("asked about %q, want each host once", asked)
	}
	grants, err := h.st.Grants(h.session)
	if err != nil || len(grants) != 1 || grants[0].Kind != policy.KindHost || grants[0].Command != "approved.invalid" {
		t.Fatalf("grants %+v %v", grants, err)
	}
	results := h.recorded().resultsSeen(1)
	if len(results) != 3 || strings.Contains(results[0], "not approved") || !strings.Contains(results[2], "declined.invalid was not approved") {
		t.Fatalf("results %q", results)
	}
}
