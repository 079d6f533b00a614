package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
)

// "Allow for this session" on `bash build.sh` is for build.sh as it was: once the agent has
// rewritten it, the same command asks again, saying the script changed and showing how.
func TestAllowForThisSessionHoldsForTheScriptAsApproved(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"bash build.sh"}}]}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"bash build.sh"}}]}`,
		`{"tool_calls":[{"name":"write","input":{"path":"build.sh","content":"echo changed\n"}}]}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"bash build.sh"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute", permission: "auto"})
	if err := os.WriteFile(filepath.Join(h.workspace, "build.sh"), []byte("echo ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var reasons, diffs []string
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		var p decision.ApprovalPayload
		json.Unmarshal(d.Payload, &p)
		reasons, diffs = append(reasons, p.ReasonKey), append(diffs, p.Diff)
		res := decision.Approval(decision.AllowSession, "")
		if len(reasons) > 1 {
			res = decision.Approval(decision.Reject, "")
		}
		return &res
	})
	h.send("build twice, then change the script and build again", mode.FollowUpInput{})
	if len(reasons) != 2 || reasons[1] != "gate.reason.script_changed" {
		t.Fatalf("asked for %q; want the first call and the one after the change", reasons)
	}
	if want := "--- a/build.sh\n+++ b/build.sh\n@@ -1 +1 @@\n-echo ok\n+echo changed\n"; diffs[1] != want {
		t.Fatalf("the card showed the diff %q, want %q", diffs[1], want)
	}
	grants, _ := h.st.Grants(h.session)
	if len(grants) != 1 || grants[0].Scripts == "" {
		t.Fatalf("the grant did not record the script: %+v", grants)
	}
}

// Planting a file git or direnv runs on its own asks every time, in Full access too; the card
// offers no saved answer, and "allow for this session" saves none.
func TestPlantingAutorunCodeAsksEveryTimeAndSavesNothing(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"write","input":{"path":".envrc","content":"a"}}]}`,
		`{"tool_calls":[{"name":"write","input":{"path":".envrc","content":"b"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
	var scopes []int
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		var p decision.ApprovalPayload
		json.Unmarshal(d.Payload, &p)
		scopes = append(scopes, len(p.Scopes))
		res := decision.Approval(decision.AllowSession, "")
		return &res
	})
	h.send("write .envrc twice", mode.FollowUpInput{})
	if len(scopes) != 2 || scopes[0] != 0 {
		t.Fatalf("asked %d times, scopes offered %v; want two asks with none", len(scopes), scopes)
	}
	if grants, _ := h.st.Grants(h.session); len(grants) != 0 {
		t.Fatalf("a grant that never applies was saved: %+v", grants)
	}
	if b, _ := os.ReadFile(filepath.Join(h.workspace, ".envrc")); string(b) != "b" {
		t.Fatalf("the approved writes did not happen: %q", b)
	}
}
