package agent

import (
	"agentdesk/backend/eventlog"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

func TestGateCallsFromACPKinds(t *testing.T) {
	in := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, c := range []struct {
		name string
		call ExternalToolCall
		want []policy.Call
	}{
		{"a read names its location", ExternalToolCall{Kind: "read", Locations: []string{"/ws/a.go"}},
			[]policy.Call{{Kind: policy.KindRead, Path: "/ws/a.go"}}},
		{"an edit names its diff's file", ExternalToolCall{Kind: "edit", Diffs: []ExternalDiff{{Path: "/ws/b.go"}}},
			[]policy.Call{{Kind: policy.KindEdit, Path: "/ws/b.go"}}},
		{"an edit's input path counts", ExternalToolCall{Kind: "edit", Input: in(`{"filePath":"/ws/c.go"}`)},
			[]policy.Call{{Kind: policy.KindEdit, Path: "/ws/c.go"}}},
		{"a delete changes its file", ExternalToolCall{Kind: "delete", Locations: []string{"/ws/old"}},
			[]policy.Call{{Kind: policy.KindWrite, Path: "/ws/old"}}},
		{"a move changes both files", ExternalToolCall{Kind: "move", Input: in(`{"source":"/ws/a","destination":"/ws/b"}`)},
			[]policy.Call{{Kind: policy.KindWrite, Path: "/ws/a"}, {Kind: policy.KindWrite, Path: "/ws/b"}}},
		{"an execute carries its command", ExternalToolCall{Kind: "execute", Input: in(`{"command":"go test ./..."}`)},
			[]policy.Call{{Kind: policy.KindBash, Command: "go test ./..."}}},
		{"an execute's argv is joined", ExternalToolCall{Kind: "execute", Input: in(`{"command":["ls","-la"]}`)},
			[]policy.Call{{Kind: policy.KindBash, Command: "ls -la"}}},
		{"an execute without its command cannot be judged", ExternalToolCall{Kind: "execute", Input: in(`{"cwd":"/ws"}`)},
			[]policy.Call{{Kind: policy.KindOther}}},
		{"a fetch reaches the network", ExternalToolCall{Kind: "fetch", Input: in(`{"url":"https://x"}`)},
			[]policy.Call{{Kind: policy.KindFetch}}},
		{"a read without a path cannot be judged", ExternalToolCall{Kind: "read"}, []policy.Call{{Kind: policy.KindOther}}},
		{"a search may be anything", ExternalToolCall{Kind: "search", Locations: []string{"/ws"}}, []policy.Call{{Kind: policy.KindOther}}},
		{"think is unknown to the gate", ExternalToolCall{Kind: "think"}, []policy.Call{{Kind: policy.KindOther}}},
		{"a missing kind is unknown", ExternalToolCall{}, []policy.Call{{Kind: policy.KindOther}}},
		{"a kind from a later protocol is unknown", ExternalToolCall{Kind: "teleport"}, []policy.Call{{Kind: policy.KindOther}}},
	} {
		if got := gateCalls(c.call); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestMergeKeepsWhatTheFirstReportLacked(t *testing.T) {
	first := ExternalToolCall{ID: "c", Title: "bash", Kind: "execute", Input: json.RawMessage(`{"cwd":"/ws"}`)}
	perm := ExternalToolCall{ID: "c", Input: json.RawMessage(`{"command":"rm -rf build"}`), Locations: []string{"/ws/build"}}
	got := first.merge(perm)
	var in map[string]string
	json.Unmarshal(got.Input, &in)
	if got.Title != "bash" || got.Kind != "execute" || in["cwd"] != "/ws" || in["command"] != "rm -rf build" || len(got.Locations) != 1 {
		t.Fatalf("merged: %+v %s", got, got.Input)
	}
	if again := got.merge(ExternalToolCall{Input: json.RawMessage(`{}`)}); string(again.Input) != string(got.Input) {
		t.Fatalf("an empty later input forgets nothing: %s", again.Input)
	}
}

func TestShortTitleAndDescription(t *testing.T) {
	if got := shortTitle(ExternalToolCall{Title: "Write a.go\nwith a long body"}); got != "Write a.go …" {
		t.Errorf("one line: %q", got)
	}
	if got := shortTitle(ExternalToolCall{Kind: "edit"}); got != "edit" {
		t.Errorf("the kind when untitled: %q", got)
	}
	if got := shortTitle(ExternalToolCall{Title: strings.Repeat("x", 200)}); len([]rune(got)) != titleLen {
		t.Errorf("clipped: %d", len([]rune(got)))
	}
	old := "a\nb\n"
	d := describeCall(ExternalToolCall{Diffs: []ExternalDiff{{Path: "src/x.txt", OldText: &old, NewText: "a\nc\n"}}})
	if !strings.Contains(d, "--- a/src/x.txt") || !strings.Contains(d, "-b") || !strings.Contains(d, "+c") {
		t.Errorf("a diff: %q", d)
	}
	if d := describeCall(ExternalToolCall{Diffs: []ExternalDiff{{Path: "new.txt", NewText: "hi\n"}}}); !strings.Contains(d, "--- /dev/null") || !strings.Contains(d, "+hi") {
		t.Errorf("a new file: %q", d)
	}
	none := ""
	d = describeCall(ExternalToolCall{Diffs: []ExternalDiff{{Path: "/ws/hello.txt", OldText: &none, NewText: "hello"}}})
	if want := "--- /dev/null\n+++ /ws/hello.txt\n@@ -0,0 +1 @@\n+hello"; d != want {
		t.Errorf("an empty old text is a new file, an absolute path stays as is:\n%s\nwant\n%s", d, want)
	}
}

func TestAgentName(t *testing.T) {
	for cmd, want := range map[string]string{
		"opencode acp":                        "opencode",
		"npx -y opencode-ai acp":              "opencode-ai",
		"/usr/bin/node /x/fixtures/agent.mjs": "agent",
		"env FOO=1 gemini --experimental-acp": "gemini",
		"goose acp":                           "goose",
	} {
		if got := AgentName(cmd); got != want {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
	}
}

// permissionCase runs one permission request of the fake agent in a session of the given
// permission mode (and override) and reports how it was answered and whether the person was asked.
func permissionCase(t *testing.T, o harnessOpts, callOf func(ws string) ExternalToolCall, rules ...policy.Rule) (ExternalAnswer, []decision.Decision, *harness) {
	t.Helper()
	var ans ExternalAnswer
	var call ExternalToolCall
	f := &fakeAgent{info: ExternalInfo{PlanMode: true}, script: func(ctx context.Context, h ExternalHandler) (string, error) {
		h.ToolCall(ExternalToolCall{ID: call.ID, Title: call.Title, Kind: call.Kind, Status: "pending", Input: json.RawMessage(`{}`)})
		var err error
		ans, err = h.Permission(ctx, ExternalPermission{Call: call, Options: []ExternalOption{
			{ID: "once", Kind: "allow_once"}, {ID: "always", Kind: "allow_always"}, {ID: "no", Kind: "reject_once"}}})
		if err != nil {
			t.Errorf("permission: %v", err)
		}
		h.ToolUpdate(ExternalToolCall{ID: call.ID, Status: "completed"})
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
		call       func(ws string) ExternalToolCall
		rules      []policy.Rule
		wantOption string
		wantAsked  bool
		wantReason string
		verdict    string
	}{
		{"full access allows an edit inside the workspace without asking", harnessOpts{permission: "full"},
			func(ws string) ExternalToolCall {
				return ExternalToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "once", false, "", "allow"},
		{"auto allows an edit inside the workspace", harnessOpts{permission: "auto"},
			func(ws string) ExternalToolCall {
				return ExternalToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "once", false, "", "allow"},
		{"ask allows a read inside the workspace", harnessOpts{permission: "ask"},
			func(ws string) ExternalToolCall {
				return ExternalToolCall{ID: "r", Kind: "read", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "once", false, "", "allow"},
		{"ask asks for an edit, and the reason goes back", harnessOpts{permission: "ask"},
			func(ws string) ExternalToolCall {
				return ExternalToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "no", true, "not now, tests first", "ask"},
		{"auto asks for an edit outside the workspace", harnessOpts{permission: "auto"},
			func(string) ExternalToolCall {
				return ExternalToolCall{ID: "e", Kind: "edit", Locations: []string{"/etc/hosts"}}
			},
			nil, "no", true, "not now", "ask"},
		{"full access still asks for a fetch", harnessOpts{permission: "full"},
			func(string) ExternalToolCall {
				return ExternalToolCall{ID: "f", Kind: "fetch", Input: json.RawMessage(`{"url":"https://x"}`)}
			},
			nil, "no", true, "not now", "ask"},
		{"full access still asks for an unknown kind", harnessOpts{permission: "full"},
			func(string) ExternalToolCall { return ExternalToolCall{ID: "o", Kind: "think"} },
			nil, "no", true, "not now", "ask"},
		{"plan denies an edit at once with the reason", harnessOpts{permission: "full", override: "plan"},
			func(ws string) ExternalToolCall {
				return ExternalToolCall{ID: "e", Kind: "edit", Locations: []string{filepath.Join(ws, "a.go")}}
			},
			nil, "no", false, "WRITE_DISABLED_IN_READ_ONLY", "deny"},
		{"auto asks for a read-only command, which the agent runs outside AgentDesk's sandbox", harnessOpts{permission: "auto"},
			func(string) ExternalToolCall {
				return ExternalToolCall{ID: "x", Kind: "execute", Input: json.RawMessage(`{"command":"ls -la"}`)}
			},
			nil, "no", true, "not now", "ask"},
		{"full access runs the agent's command", harnessOpts{permission: "full"},
			func(string) ExternalToolCall {
				return ExternalToolCall{ID: "x", Kind: "execute", Input: json.RawMessage(`{"command":"ls -la"}`)}
			},
			nil, "once", false, "", "allow"},
		{"a deny rule holds under full access", harnessOpts{permission: "full"},
			func(string) ExternalToolCall {
				return ExternalToolCall{ID: "x", Kind: "execute", Input: json.RawMessage(`{"command":"git push"}`)}
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
	var ans ExternalAnswer
	old := "package a\n"
	f := &fakeAgent{info: ExternalInfo{PlanMode: true}}
	h := externalHarness(t, f)
	path := filepath.Join(h.workspace, "a.go")
	f.script = func(ctx context.Context, x ExternalHandler) (string, error) {
		x.ToolCall(ExternalToolCall{ID: "w", Title: "write", Kind: "edit", Status: "pending", Input: json.RawMessage(`{}`)})
		ans, _ = x.Permission(ctx, ExternalPermission{Call: ExternalToolCall{ID: "w", Title: "Write a.go",
			Locations: []string{path}, Diffs: []ExternalDiff{{Path: path, OldText: &old, NewText: "package a\n\nfunc A() {}\n"}}},
			Options: []ExternalOption{{ID: "once", Kind: "allow_once"}, {ID: "no", Kind: "reject_once"}}})
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
	f := &fakeAgent{info: ExternalInfo{PlanMode: true}}
	h := externalHarness(t, f)
	approved := filepath.Join(h.workspace, "approved.txt")
	other := filepath.Join(h.workspace, "other.txt")
	os.WriteFile(other, []byte("before\n"), 0o644)
	var errs []error
	var read string
	f.script = func(ctx context.Context, x ExternalHandler) (string, error) {
		x.Permission(ctx, ExternalPermission{Call: ExternalToolCall{ID: "e", Kind: "edit", Locations: []string{approved}},
			Options: []ExternalOption{{ID: "once", Kind: "allow_once"}, {ID: "no", Kind: "reject_once"}}})
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
	f := &fakeAgent{info: ExternalInfo{PlanMode: false}, script: func(context.Context, ExternalHandler) (string, error) {
		t.Error("nothing is sent to the agent")
		return "end_turn", nil
	}}
	h := externalHarness(t, f, harnessOpts{override: "plan"})
	h.send("plan it", mode.FollowUpInput{})
	if turns := h.turns(); turns[0].Status != store.TurnFailed || !strings.HasPrefix(turns[0].Error, string(ExternalAgentNoPlan)) {
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
	f := &fakeAgent{info: ExternalInfo{AgentSession: "agent-1", PlanMode: true}}
	f.script = func(ctx context.Context, x ExternalHandler) (string, error) {
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
	statuses := h.named(EventAgentStatus)
	if len(statuses) != 2 || statuses[0].Data.(AgentStatus).State != AgentStarting || statuses[1].Data.(AgentStatus).State != AgentReady ||
		statuses[0].Data.(AgentStatus).Name != "fake-agent" {
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
	f := &fakeAgent{info: ExternalInfo{PlanMode: true}, script: func(ctx context.Context, x ExternalHandler) (string, error) {
		x.ToolCall(ExternalToolCall{ID: "b", Title: "bash", Kind: "execute", Status: "pending", Input: json.RawMessage(`{"cwd":"/ws"}`)})
		x.Permission(ctx, ExternalPermission{Call: ExternalToolCall{ID: "b", Title: "Run tests", Input: json.RawMessage(`{"command":"go test"}`)},
			Options: []ExternalOption{{ID: "once", Kind: "allow_once"}}})
		x.ToolUpdate(ExternalToolCall{ID: "b", Status: "completed", Output: "ok"})
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
