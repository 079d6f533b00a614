package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

func approvalOf(t *testing.T, d decision.Decision) decision.ApprovalPayload {
	t.Helper()
	var p decision.ApprovalPayload
	if err := json.Unmarshal(d.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The approval card shows what "allow for this session" saves: the exact command, and a
// program + subcommand prefix only where one is safe; the person's choice is what is saved.
func TestApprovalShowsAndSavesTheChosenScope(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"go env GOOS"}}]}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"go env GOARCH"}}]}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"echo a; echo b"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute"})
	var payloads []decision.ApprovalPayload
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		payloads = append(payloads, approvalOf(t, d))
		res := decision.ApprovalScoped(decision.AllowSession, "", decision.ScopePrefix)
		return &res
	})
	h.send("go env twice", mode.FollowUpInput{})
	if len(payloads) != 2 {
		t.Fatalf("asked %d times; the prefix grant must cover `go env GOARCH`", len(payloads))
	}
	first := payloads[0].Scopes
	if len(first) != 2 || first[0] != (decision.ScopeOption{ID: "exact", Command: "go env GOOS"}) || first[1] != (decision.ScopeOption{ID: "prefix", Command: "go env"}) {
		t.Fatalf("scopes shown: %+v", first)
	}
	if second := payloads[1].Scopes; len(second) != 1 || second[0].ID != "exact" {
		t.Fatalf("a compound command must offer no prefix: %+v", second)
	}
	grants, _ := h.st.Grants(h.session)
	if len(grants) != 2 || grants[0] != (policy.Grant{Kind: policy.KindBash, Command: "go env", Scope: policy.ScopePrefix}) ||
		grants[1] != (policy.Grant{Kind: policy.KindBash, Command: "echo a; echo b", Scope: policy.ScopeExact}) {
		t.Fatalf("grants: %+v", grants)
	}
}

// A step out of the sandbox is answered for one call only: "always allow" saves nothing, and
// the same escalation asks again.
func TestAnEscalationIsNeverSaved(t *testing.T) {
	call := `{"tool_calls":[{"name":"bash","input":{"command":"echo out","escalate":"network"}}]}`
	h := newHarness(t, script(call, call, `{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
	var payloads []decision.ApprovalPayload
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		payloads = append(payloads, approvalOf(t, d))
		res := decision.Approval(decision.AllowAlways, "")
		return &res
	})
	h.send("reach out twice", mode.FollowUpInput{})
	if len(payloads) != 2 {
		t.Fatalf("asked %d times in full access; an escalation asks every time", len(payloads))
	}
	if p := payloads[0]; p.Escalation != "network" || len(p.Scopes) != 0 || p.ReasonKey != "gate.reason.escalate.network" {
		t.Fatalf("escalation card: %+v", p)
	}
	rules, _ := h.st.Rules()
	grants, _ := h.st.Grants(h.session)
	if len(rules) != 0 || len(grants) != 0 {
		t.Fatalf("an escalation was saved: rules %+v grants %+v", rules, grants)
	}
	done := h.named(EventToolDone)
	if len(done) != 2 || done[0].Data.(ToolDoneView).Approved != "allow_once" || !strings.Contains(done[0].Data.(ToolDoneView).Output, "out") {
		t.Fatalf("results: %+v", done)
	}
}

// What the person approved is what the tool acts on: a file swapped for a symlink to outside
// the workspace while the approval waits is refused, and the outside file is untouched.
func TestAnApprovedPathSwappedWhileWaitingIsRefused(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"write","input":{"path":"notes.txt","content":"agent text"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute"})
	target := filepath.Join(h.workspace, "notes.txt")
	if err := os.WriteFile(target, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		// The swap happens after the gate resolved the path, before the person answers.
		os.Remove(target)
		if err := os.Symlink(outside, target); err != nil {
			t.Error(err)
		}
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	h.send("write notes", mode.FollowUpInput{})
	if got, _ := os.ReadFile(outside); string(got) != "precious" {
		t.Fatalf("the outside file was written through the swapped link: %q", got)
	}
	done := h.named(EventToolDone)
	if len(done) != 1 || !strings.Contains(done[0].Data.(ToolDoneView).Output, "TARGET_CHANGED") {
		t.Fatalf("the model must see TARGET_CHANGED: %+v", done)
	}
}
