package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
)

// A shell command that names a sensitive file asks; once approved it reads that file, this
// call only, while every other sensitive file stays hidden from it (the script it runs reads
// .aws/credentials too). The approval is for that call only: the next command asks again.
func TestAnApprovedCommandSeesOnlyTheSensitivePathsItNames(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatal("this test needs the namespaced sandbox, which this machine offers (TESTING.md)")
	}
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"bash","input":{"command":"cat .env; sh peek.sh"}}]}`,
		`{"tool_calls":[{"name":"bash","input":{"command":"sh peek.sh; cat .env"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute", permission: "auto"})
	for rel, content := range map[string]string{".env": "ENV-SECRET", ".aws/credentials": "AWS-SECRET", "peek.sh": "cat .aws/credentials\n"} {
		p := filepath.Join(h.workspace, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var asked []string
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		asked = append(asked, string(d.Payload))
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	h.send("peek", mode.FollowUpInput{})
	r := h.recorded()
	first, second := r.resultsSeen(1), r.resultsSeen(2)
	if len(asked) != 2 || !strings.Contains(asked[0], string(policy.SensitivePath)) {
		t.Fatalf("asked %q", asked)
	}
	if len(first) != 1 || !strings.Contains(first[0], "ENV-SECRET") || strings.Contains(first[0], "AWS-SECRET") {
		t.Fatalf("the approved command: %q", first)
	}
	if last := second[len(second)-1]; !strings.Contains(last, "ENV-SECRET") || strings.Contains(last, "AWS-SECRET") {
		t.Fatalf("the second approved command: %q", last)
	}
}
