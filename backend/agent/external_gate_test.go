package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

// permissionCase runs one permission request of the fake agent in a session of the given
// permission mode (and override) and reports how it was answered and whether the person was asked.
func permissionCase(t *testing.T, o harnessOpts, callOf func(ws string) external.ToolCall, rules ...policy.Rule) (external.Answer, []decision.Decision, *harness) {
	t.Helper()
	var ans external.Answer
	var call external.ToolCall
	f := &fakeAgent{info: external.Info{PlanMode: true}, script: func(ctx context.Context, h external.Handler) (string, error) {
		h.ToolCall(external.ToolCall{ID: call.ID, Title: call.Title, Kind: call.Kind, Status: "pending", Input: json.RawMessage(`{}`)})
		var err error
		ans, err = h.Permission(ctx, external.Permission{Call: call, Options: []external.Option{
			{ID: "once", Kind: "allow_once"}, {ID: "always", Kind: "allow_always"}, {ID: "no", Kind: "reject_once"}}})
		if err != nil {
			t.Errorf("permission: %v", err)
		}
		h.ToolUpdate(external.ToolCall{ID: call.ID, Status: "completed"})
		return "end_turn", nil
	}}
	h := externalHarness(t, f, o)
	call = callOf(h.workspace)
	for _, r := range rules {
		if _, err := h.st.AddRule(r, "settings"); err != nil {
			t.Fatal(err)
		}
	}
	var asked []decision.Decision
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		asked = append(asked, d)
		res := decision.Approval(decision.Reject, "not now, tests first")
		return &res
	})
	h.send("go", mode.FollowUpInput{})
	if turns := h.turns(); turns[len(turns)-1].Status != store.TurnDone {
		t.Fatalf("turn: %+v", turns[len(turns)-1])
	}
	return ans, asked, h
}

func TestExternalPermissionsPassTheGate(t *testing.T) {
	for _, c := range []struct {
		name       string
		opts       harnessOpts
		call       func(ws string) external.ToolCall
		rules      []policy.Rule
		wantOption string
		wantAsked  bool
		wantReason string
		verdict    string
	}{
		{"full access allows an edit inside the workspace without asking", harnessOpts{permission: "full"},
			func(ws string) external.ToolCall {
				return external.ToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "once", false, "", "allow"},
		{"auto allows an edit inside the workspace", harnessOpts{permission: "auto"},
			func(ws string) external.ToolCall {
				return external.ToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "once", false, "", "allow"},
		{"ask allows a read inside the workspace", harnessOpts{permission: "ask"},
			func(ws string) external.ToolCall {
				return external.ToolCall{ID: "r", Kind: "read", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "once", false, "", "allow"},
		{"ask asks for an edit, and the reason goes back", harnessOpts{permission: "ask"},
			func(ws string) external.ToolCall {
				return external.ToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "no", true, "not now, tests first", "ask"},
		{"auto asks for an edit outside the workspace", harnessOpts{permission: "auto"},
			func(string) external.ToolCall {
				return external.ToolCall{ID: "e", Kind: "edit", Locations: []string{"/etc/hosts"}}
			},
			nil, "no", true, "not now", "ask"},
		{"full access still asks for a fetch", harnessOpts{permission: "full"},
			func(string) external.ToolCall {
				return external.ToolCall{ID: "f", Kind: "fetch", Input: json.RawMessage(`{"url":"https://x"}`)}
			},
			nil, "no", true, "not now", "ask"},
		{"full access still asks for an unknown kind", harnessOpts{permission: "full"},
			func(string) external.ToolCall { return external.ToolCall{ID: "o", Kind: "think"} },
			nil, "no", true, "not now", "ask"},
		{"plan denies an edit at once with the reason", harnessOpts{permission: "full", override: "plan"},
			func(ws string) external.ToolCall {
				return external.ToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "no", false, "WRITE_DISABLED_IN_READ_ONLY", "deny"},
		{"auto asks for a read-only command, which the agent runs outside AgentDesk's sandbox", harnessOpts{permission: "auto"},
			func(string) external.ToolCall {
				return external.ToolCall{ID: "x", Kind: "execute", Input: json.RawMessage(`{"command":"ls -la"}`)}
			},
			nil, "no", true, "not now", "ask"},
		{"full access runs the agent's command", harnessOpts{permission: "full"},
			func(string) external.ToolCall {
				return external.ToolCall{ID: "x", Kind: "execute", Input: json.RawMessage(`{"command":"ls -la"}`)}
			},
			nil, "once", false, "", "allow"},
		{"a deny rule holds under full access", harnessOpts{permission: "full"},
			func(string) external.ToolCall {
				return external.ToolCall{ID: "x", Kind: "execute", Input: json.RawMessage(`{"command":"git push"}`)}
			},
			[]policy.Rule{{Effect: policy.Deny, Command: "git push"}}, "no", false, "DENIED_BY_RULE", "deny"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ans, asked, h := permissionCase(t, c.opts, c.call, c.rules...)
			if ans.OptionID != c.wantOption || (len(asked) > 0) != c.wantAsked || !strings.Contains(ans.Reason, c.wantReason) {
				t.Fatalf("answer %+v, asked %d times; want %s, asked %v, reason %q", ans, len(asked), c.wantOption, c.wantAsked, c.wantReason)
			}
			cards := h.named(EventToolCall)
			if last := cards[len(cards)-1].Data.(ToolCallView); last.Verdict != c.verdict || last.Layer == "" {
				t.Fatalf("the card shows the verdict and layer: %+v", last)
			}
		})
	}
}

func TestApprovalIsBuiltFromThePermissionRequestNotTheBareFirstCall(t *testing.T) {
	var ans external.Answer
	old := "package a\n"
	f := &fakeAgent{info: external.Info{PlanMode: true}}
	h := externalHarness(t, f)
	path := filepath.Join(h.workspace, "a.go")
	f.script = func(ctx context.Context, x external.Handler) (string, error) {
		x.ToolCall(external.ToolCall{ID: "w", Title: "write", Kind: "edit", Status: "pending", Input: json.RawMessage(`{}`)})
		ans, _ = x.Permission(ctx, external.Permission{Call: external.ToolCall{ID: "w", Title: "Write a.go",
			Locations: []string{path}, Diffs: []external.Diff{{Path: path, OldText: &old, NewText: "package a\n\nfunc A() {}\n"}}},
			Options: []external.Option{{ID: "once", Kind: "allow_once"}, {ID: "no", Kind: "reject_once"}}})
		return "end_turn", nil
	}
	var payload decision.ApprovalPayload
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		json.Unmarshal(d.Payload, &payload)
		res := decision.Approval(decision.AllowSession, "")
		return &res
	})
	h.send("write it", mode.FollowUpInput{})
	if payload.Tool != "Write a.go" || payload.Path != path || payload.Kind != "edit" || payload.Agent != "fake-agent" ||
		!strings.Contains(payload.Diff, "+func A() {}") || !strings.Contains(payload.Summary, "+func A() {}") {
		t.Fatalf("the approval shows the requested change: %+v", payload)
	}
	if ans.OptionID != "once" {
		t.Fatalf("allow for this session answers the agent allow_once: %+v", ans)
	}
	grants, _ := h.st.Grants(h.session)
	if len(grants) != 1 || grants[0].Kind != policy.KindEdit || grants[0].Path != "a.go" {
		t.Fatalf("and is AgentDesk's own grant: %+v", grants)
	}
}

func TestFileSystemCallsPassTheGate(t *testing.T) {
	f := &fakeAgent{info: external.Info{PlanMode: true}}
	h := externalHarness(t, f)
	approved := filepath.Join(h.workspace, "approved.txt")
	other := filepath.Join(h.workspace, "other.txt")
	os.WriteFile(other, []byte("before\n"), 0o644)
	var errs []error
	var read string
	f.script = func(ctx context.Context, x external.Handler) (string, error) {
		x.Permission(ctx, external.Permission{Call: external.ToolCall{ID: "e", Kind: "edit", Locations: []string{approved}},
			Options: []external.Option{{ID: "once", Kind: "allow_once"}, {ID: "no", Kind: "reject_once"}}})
		errs = append(errs, x.WriteTextFile(ctx, approved, "hello\n"))
		errs = append(errs, x.WriteTextFile(ctx, other, "after\n"))
		var err error
		read, err = x.ReadTextFile(ctx, approved, 0, 0)
		errs = append(errs, err)
		return "end_turn", nil
	}
	var asked []decision.ApprovalPayload
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		var p decision.ApprovalPayload
		json.Unmarshal(d.Payload, &p)
		asked = append(asked, p)
		if len(asked) == 1 {
			res := decision.Approval(decision.AllowOnce, "")
			return &res
		}
		res := decision.Approval(decision.Reject, "leave other.txt alone")
		return &res
	})
	h.send("write", mode.FollowUpInput{})
	if len(asked) != 2 || asked[1].Path != other || !strings.Contains(asked[1].Diff, "-before") || !strings.Contains(asked[1].Diff, "+after") {
		t.Fatalf("the approved edit's write is not asked again; another write is, with its diff: %+v", asked)
	}
	if errs[0] != nil || errs[1] == nil || !strings.Contains(errs[1].Error(), "leave other.txt alone") || errs[2] != nil {
		t.Fatalf("errors: %v", errs)
	}
	if b, _ := os.ReadFile(approved); string(b) != "hello\n" || read != "hello\n" {
		t.Fatalf("written through the write tool and read back: %q %q", b, read)
	}
	if b, _ := os.ReadFile(other); string(b) != "before\n" {
		t.Fatalf("the declined write changed nothing: %q", b)
	}
}

func TestPlanIsRefusedForAnAgentWithoutAPlanMode(t *testing.T) {
	f := &fakeAgent{info: external.Info{PlanMode: false}, script: func(context.Context, external.Handler) (string, error) {
		t.Error("nothing is sent to the agent")
		return "end_turn", nil
	}}
	h := externalHarness(t, f, harnessOpts{override: "plan"})
	h.send("plan it", mode.FollowUpInput{})
	if turns := h.turns(); turns[0].Status != store.TurnFailed || !strings.HasPrefix(turns[0].Error, string(external.NoPlanMode)) {
		t.Fatalf("the turn fails with a clear error: %+v", turns[0])
	}
	none, plan := "", "plan"
	if _, err := h.rt.Configure(h.session, mode.FollowUpInput{ExecutionOverride: &none}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.Configure(h.session, mode.FollowUpInput{ExecutionOverride: &plan}); err == nil || !strings.Contains(err.Error(), "EXTERNAL_AGENT_NO_PLAN") {
		t.Fatalf("once the agent is known, choosing Plan is refused: %v", err)
	}
}

func TestOpenExternalRemembersTheAgentsSessionAndRecaps(t *testing.T) {
	var recaps []string
	f := &fakeAgent{info: external.Info{AgentSession: "agent-1", PlanMode: true}}
	f.script = func(ctx context.Context, x external.Handler) (string, error) {
		recaps = append(recaps, f.prompts[len(f.prompts)-1].Recap())
		x.Text("done")
		return "end_turn", nil
	}
	h := externalHarness(t, f)
	if err := h.rt.OpenExternal(context.Background(), h.session); err != nil {
		t.Fatal(err)
	}
	if id, _ := h.st.AgentSession(h.session, "fake-agent --acp"); id != "agent-1" {
		t.Fatalf("the agent's session id is stored: %q", id)
	}
	statuses := h.named(external.EventAgentStatus)
	if len(statuses) != 2 || statuses[0].Data.(external.AgentStatus).State != external.StatusStarting || statuses[1].Data.(external.AgentStatus).State != external.StatusReady ||
		statuses[0].Data.(external.AgentStatus).Name != "fake-agent" {
		t.Fatalf("starting, then ready: %+v", statuses)
	}
	h.send("first message", mode.FollowUpInput{})
	h.send("second message", mode.FollowUpInput{})
	if len(f.opened) != 1 {
		t.Fatalf("a running agent is not opened again: %d", len(f.opened))
	}
	recap := recaps[1]
	if !strings.Contains(recap, "User: first message") || !strings.Contains(recap, "Assistant: done") || strings.Contains(recap, "second message") {
		t.Fatalf("the recap is the conversation before the turn: %q", recap)
	}
	if got := recaps[0]; got != "" {
		t.Fatalf("nothing before the first turn: %q", got)
	}
	f.running = false
	if err := h.rt.OpenExternal(context.Background(), h.session); err != nil {
		t.Fatal(err)
	}
	if f.opened[1].AgentSession != "agent-1" {
		t.Fatalf("a restarted agent is handed its session to load: %+v", f.opened[1])
	}
}

func TestTheLogKeepsTheCallAsItsRequestDescribedIt(t *testing.T) {
	f := &fakeAgent{info: external.Info{PlanMode: true}, script: func(ctx context.Context, x external.Handler) (string, error) {
		x.ToolCall(external.ToolCall{ID: "b", Title: "bash", Kind: "execute", Status: "pending", Input: json.RawMessage(`{"cwd":"/ws"}`)})
		x.Permission(ctx, external.Permission{Call: external.ToolCall{ID: "b", Title: "Run tests", Input: json.RawMessage(`{"command":"go test"}`)},
			Options: []external.Option{{ID: "once", Kind: "allow_once"}}})
		x.ToolUpdate(external.ToolCall{ID: "b", Status: "completed", Output: "ok"})
		return "end_turn", nil
	}}
	h := externalHarness(t, f, harnessOpts{permission: "full"})
	h.send("test", mode.FollowUpInput{})
	log, _ := h.st.Log(h.session)
	var calls []eventlog.CallRecord
	for _, r := range log {
		if m, ok := r.Payload.(eventlog.AssistantMessage); ok {
			calls = append(calls, m.ToolCalls...)
		}
	}
	if len(calls) != 1 || calls[0].Name != "Run tests" || !strings.Contains(string(calls[0].Input), `"command":"go test"`) ||
		!strings.Contains(string(calls[0].Input), `"cwd":"/ws"`) {
		t.Fatalf("recorded once, with the request's title and merged input: %+v", calls)
	}
	cards := h.named(EventToolCall)
	if last := cards[len(cards)-1].Data.(ToolCallView); last.Name != "Run tests" || last.Summary != "go test" {
		t.Fatalf("the live card ends as the log has it: %+v", last)
	}
}
