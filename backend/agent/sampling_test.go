package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mcp"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// A server's sampling request is a decision showing the prompt and the session's model; the
// session's model answers it once allowed; "for this server" lets the next request through
// without asking, for this session only; a denial's reason reaches the server.
func TestMCPSamplingIsADecisionAnsweredByTheSessionsModel(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		h := newHarness(t, script(
			`{"tool_calls":[{"name":"mcp__notes__sample","input":{"prompt":"Name a colour."}}]}`,
			`{"text":"teal"}`,
			`{"tool_calls":[{"name":"mcp__notes__sample","input":{"prompt":"Another one."}}]}`,
			`{"text":"amber"}`,
			`{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
		withMCP(t, h, tr)
		var asked []decision.SamplingPayload
		h.onDecision(func(d decision.Decision) *decision.Resolution {
			if d.Kind != decision.KindSampling {
				t.Errorf("decision kind %s", d.Kind)
				return nil
			}
			var p decision.SamplingPayload
			json.Unmarshal(d.Payload, &p)
			asked = append(asked, p)
			res := decision.Sampling(decision.SampleServer, "")
			return &res
		})
		h.send("sample twice", mode.FollowUpInput{})
		if len(asked) != 1 {
			t.Fatalf("allowed for the server, the second request asks no more: %+v", asked)
		}
		p := asked[0]
		if p.Server != "notes" || p.Tool != "sample" || p.SystemPrompt != "Answer in one line." || p.MaxTokens != 100 ||
			len(p.Messages) != 1 || p.Messages[0] != (decision.SamplingMessage{Role: "user", Text: "Name a colour."}) ||
			p.Model != "scripted" {
			t.Fatalf("payload: %+v", p)
		}
		rec := h.recorded()
		lastContains(t, rec.resultsSeen(2), "scripted answered: teal")
		lastContains(t, rec.resultsSeen(4), "scripted answered: amber")
		grants, err := h.st.Grants(h.session)
		if err != nil || !policy.SamplingAllowed(grants, "notes") || policy.SamplingAllowed(grants, "other") {
			t.Fatalf("grants: %+v %v", grants, err)
		}
	})
}

// A denial's reason reaches the server; the call fails, the turn goes on.
func TestMCPSamplingDeniedTellsTheServerWhy(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"mcp__notes__sample","input":{"prompt":"Name a colour."}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
	withMCP(t, h, mcp.Stdio)
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		res := decision.Sampling(decision.SampleDeny, "not with my key")
		return &res
	})
	h.send("sample", mode.FollowUpInput{})
	lastContains(t, h.recorded().resultsSeen(1), "not with my key")
	if h.turns()[0].Status != "done" {
		t.Fatalf("a denied request fails the call, not the turn: %+v", h.turns()[0])
	}
}

// In Chat nothing samples, and a request no call holds is declined (unit: the agent's side).
func TestSamplingInChatIsRefused(t *testing.T) {
	h := newHarness(t, script(`{"text":"hi"}`), harnessOpts{interaction: "chat"})
	h.send("hello", mode.FollowUpInput{})
	tr := &turn{rt: h.rt, sessionID: h.session, exec: mode.ModeChat}
	_, err := tr.sample(context.Background(), tool.SamplingRequest{Server: "notes"})
	if err == nil || !strings.Contains(err.Error(), "in Chat mode") {
		t.Fatalf("chat: %v", err)
	}
}
