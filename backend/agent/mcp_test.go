package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/mcp"
	"agentdesk/backend/mcp/mcptest"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// The MCP fixture server, built once for this test binary (TestMain removes it).
var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixturePath string
	fixtureErr  error
)

func mcpFixture(t *testing.T) string {
	t.Helper()
	fixtureOnce.Do(func() {
		if fixtureDir, fixtureErr = os.MkdirTemp("", "agentdesk-agent-mcp-*"); fixtureErr == nil {
			fixturePath, fixtureErr = mcptest.BuildFixture(fixtureDir)
		}
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixturePath
}

func removeFixture() {
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
}

// fixtureServer is the fixture as the harness reaches it.
type fixtureServer struct {
	host *mcp.Host
	addr string // the HTTP fixture's address ("" over stdio), to start it there again
}

// withMCP gives the harness's runtime an MCP host with the fixture enabled as "notes", over
// transport: started by the host over stdio, or running as its own process serving Streamable
// HTTP on a local port.
func withMCP(t *testing.T, h *harness, transport mcp.Transport) fixtureServer {
	t.Helper()
	host := mcp.NewHost(h.st, mcp.Options{DataDir: filepath.Dir(h.st.Path()), Version: "test"})
	t.Cleanup(func() { host.Close(context.Background()) })
	cfg := mcp.Config{Name: "notes", Transport: mcp.Stdio, Command: mcpFixture(t)}
	var fs fixtureServer
	if transport == mcp.HTTP {
		var url string
		url, fs.addr = startHTTPFixture(t, "127.0.0.1:0", h.workspace)
		cfg = mcp.Config{Name: "notes", Transport: mcp.HTTP, URL: url}
	}
	v, err := host.Add(cfg, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.Enable(context.Background(), v.ID, h.workspace); err != nil {
		t.Fatal(err)
	}
	h.rt.opts.MCP = host
	fs.host = host
	return fs
}

// startHTTPFixture runs the fixture as its own process serving Streamable HTTP on addr, in
// folder dir, until the test ends; it returns the URL and the address it serves on.
func startHTTPFixture(t *testing.T, addr, dir string) (url, bound string) {
	t.Helper()
	cmd := exec.Command(mcpFixture(t), "--http", addr)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the HTTP fixture printed no address: %v", err)
	}
	url = strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
	return url, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
}

// eachTransport runs test once over stdio and once over Streamable HTTP.
func eachTransport(t *testing.T, test func(t *testing.T, transport mcp.Transport)) {
	for _, tr := range mcp.Transports {
		t.Run(string(tr), func(t *testing.T) { test(t, tr) })
	}
}

func toolNames(r recorded, i int) []string {
	var out []string
	for _, tl := range r.Requests[i].Tools {
		out = append(out, tl.Name)
	}
	return out
}

func TestMCPToolsAreOfferedByTheModesProfile(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		for _, c := range []struct {
			interaction, override string
			want, not             []string
		}{
			{"smart", "execute", []string{"mcp__notes__echo", "mcp__notes__write_note", "mcp__notes__crash"}, nil},
			{"smart", "plan", []string{"mcp__notes__echo", "mcp__notes__greet"}, []string{"mcp__notes__write_note", "mcp__notes__probe"}},
			{"chat", "", nil, []string{"mcp__notes__echo"}},
		} {
			h := newHarness(t, script(`{"text":"ok"}`), harnessOpts{interaction: c.interaction, override: c.override})
			withMCP(t, h, tr)
			h.send("hello", mode.FollowUpInput{})
			names := toolNames(h.recorded(), 0)
			for _, w := range c.want {
				if !slices.Contains(names, w) {
					t.Errorf("%s %s: %s not offered (%v)", c.interaction, c.override, w, names)
				}
			}
			for _, n := range c.not {
				if slices.Contains(names, n) {
					t.Errorf("%s %s: %s offered (%v)", c.interaction, c.override, n, names)
				}
			}
		}
	})
}

func TestMCPCallAllowedByARule(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		h := newHarness(t, script(
			`{"tool_calls":[{"name":"mcp__notes__write_note","input":{"name":"a.txt","text":"by rule"}}]}`,
			`{"text":"done"}`), harnessOpts{override: "execute", permission: "ask"})
		withMCP(t, h, tr)
		if _, err := h.st.AddRule(policy.Rule{Effect: policy.Allow, Kind: policy.KindMCP, MCP: "notes/write_note"}, "settings"); err != nil {
			t.Fatal(err)
		}
		h.onDecision(func(d decision.Decision) *decision.Resolution {
			t.Errorf("a call allowed by a rule asked: %s", d.Payload)
			return nil
		})
		h.send("write a note", mode.FollowUpInput{})
		if b, err := os.ReadFile(filepath.Join(h.workspace, "a.txt")); err != nil || string(b) != "by rule" {
			t.Fatalf("the note: %q, %v", b, err)
		}
		call := h.named(EventToolCall)[0].Data.(ToolCallView)
		if call.Verdict != "allow" || call.Layer != "rule" || call.Server != "notes" {
			t.Fatalf("tool card: %+v", call)
		}
		lastContains(t, h.recorded().resultsSeen(1), "wrote a.txt")
	})
}

// In Auto an MCP call asks (its effect is unknown); "allow for this session" saves the one tool.
func TestMCPCallAsksAndAGrantCoversTheSameTool(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		h := newHarness(t, script(
			`{"tool_calls":[{"name":"mcp__notes__write_note","input":{"name":"a.txt","text":"1"}}]}`,
			`{"tool_calls":[{"name":"mcp__notes__write_note","input":{"name":"b.txt","text":"2"}}]}`,
			`{"tool_calls":[{"name":"mcp__notes__probe","input":{}}]}`,
			`{"text":"done"}`), harnessOpts{override: "execute", permission: "auto"})
		withMCP(t, h, tr)
		var payloads []decision.ApprovalPayload
		var mu sync.Mutex
		h.onDecision(func(d decision.Decision) *decision.Resolution {
			var p decision.ApprovalPayload
			json.Unmarshal(d.Payload, &p)
			mu.Lock()
			payloads = append(payloads, p)
			mu.Unlock()
			res := decision.ApprovalScoped(decision.AllowSession, "", decision.ScopeExact)
			if p.Tool == "mcp__notes__probe" {
				res = decision.Approval(decision.Reject, "not now")
			}
			return &res
		})
		h.send("write notes", mode.FollowUpInput{})
		mu.Lock()
		defer mu.Unlock()
		if len(payloads) != 2 {
			t.Fatalf("asked %d times, want twice (write_note once, then probe): %+v", len(payloads), payloads)
		}
		p := payloads[0]
		if p.Kind != "mcp" || p.Server != "notes" || p.ReasonKey != "gate.reason.mcp_ask" || len(p.Scopes) != 1 ||
			p.Scopes[0].MCP != "mcp:notes/write_note" || !strings.Contains(p.Summary, `"name": "a.txt"`) {
			t.Fatalf("approval: %+v", p)
		}
		grants, _ := h.st.Grants(h.session)
		if len(grants) != 1 || grants[0].MCP != "notes/write_note" || grants[0].Kind != policy.KindMCP {
			t.Fatalf("grants: %+v", grants)
		}
		for _, f := range []string{"a.txt", "b.txt"} {
			if _, err := os.Stat(filepath.Join(h.workspace, f)); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
		lastContains(t, h.recorded().resultsSeen(3), "not now")
	})
}

func TestMCPCallDeniedInPlan(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		h := newHarness(t, script(
			`{"tool_calls":[{"name":"mcp__notes__write_note","input":{"name":"plan.txt","text":"x"}}]}`,
			`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"look"}}]}`,
			`{"text":"planning only"}`), harnessOpts{override: "plan", permission: "full"})
		withMCP(t, h, tr)
		var asked []string
		h.onDecision(func(d decision.Decision) *decision.Resolution {
			var p decision.ApprovalPayload
			json.Unmarshal(d.Payload, &p)
			asked = append(asked, p.Tool+" "+p.ReasonKey)
			res := decision.Approval(decision.AllowOnce, "")
			return &res
		})
		h.send("plan the notes", mode.FollowUpInput{})
		if _, err := os.Stat(filepath.Join(h.workspace, "plan.txt")); err == nil {
			t.Fatal("plan mode ran a mutating MCP tool")
		}
		rec := h.recorded()
		lastContains(t, rec.resultsSeen(1), "MCP_DISABLED_IN_READ_ONLY")
		if call := h.named(EventToolCall)[0].Data.(ToolCallView); call.Verdict != "deny" || call.Code != "MCP_DISABLED_IN_READ_ONLY" {
			t.Fatalf("tool card: %+v", call)
		}
		if len(asked) != 1 || asked[0] != "mcp__notes__echo gate.reason.mcp_read_only_hint" {
			t.Fatalf("a read-only-marked tool asks in plan, even with full access: %v", asked)
		}
		lastContains(t, rec.resultsSeen(2), "echo: look")
	})
}

// A server that changes a tool it listed has that tool withdrawn and refused, shown as a diff;
// once the person approves the new definition it is offered and runs again.
func TestMCPChangedToolIsWithdrawnAndRefused(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		h := newHarness(t, script(
			`{"tool_calls":[{"name":"mcp__notes__evolve","input":{}}]}`,
			`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"x"}}]}`,
			`{"text":"done"}`,
			`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"x","loud":true}}]}`,
			`{"text":"done again"}`), harnessOpts{override: "execute", permission: "full"})
		host := withMCP(t, h, tr).host
		var asked []decision.ApprovalPayload
		h.onDecision(func(d decision.Decision) *decision.Resolution {
			var p decision.ApprovalPayload
			json.Unmarshal(d.Payload, &p)
			asked = append(asked, p)
			return &decision.Resolution{Outcome: decision.Rejected}
		})
		h.send("change", mode.FollowUpInput{})
		// Even with full access, the changed tool's call asks, showing the change; declined,
		// the model reads why the tool did not run.
		if len(asked) != 1 || !asked[0].ToolChanged || asked[0].ReasonKey != "gate.reason.mcp_changed" ||
			!strings.Contains(asked[0].Diff, "+  \"description\": \"Echoes the text back, louder if asked.\"") || len(asked[0].Scopes) != 0 {
			t.Fatalf("asked: %+v", asked)
		}
		rec := h.recorded()
		if !slices.Contains(toolNames(rec, 0), "mcp__notes__echo") {
			t.Fatal("echo was not offered before it changed")
		}
		lastContains(t, rec.resultsSeen(2), "MCP_TOOL_CHANGED")
		if slices.Contains(toolNames(rec, 2), "mcp__notes__echo") {
			t.Fatal("a changed tool is still offered")
		}
		v, _ := host.Find("", "notes")
		var echo mcp.ToolView
		for _, tv := range v.Tools {
			if tv.Name == "echo" {
				echo = tv
			}
		}
		if echo.State != mcp.Changed || len(echo.Diff) == 0 {
			t.Fatalf("echo in the list: %+v", echo)
		}
		if _, err := host.Approve(v.ID, "echo", echo.Seen); err != nil {
			t.Fatal(err)
		}
		h.send("again", mode.FollowUpInput{})
		rec = h.recorded()
		if !slices.Contains(toolNames(rec, 3), "mcp__notes__echo") {
			t.Fatal("the re-approved tool is not offered")
		}
		lastContains(t, rec.resultsSeen(4), "echo: X")
	})
}

// A changed tool's call shows the change; allowing it approves the change (the tool is pinned
// anew and offered again) and runs this very call.
func TestMCPChangedToolApprovedFromTheCall(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"mcp__notes__evolve","input":{}}]}`,
		`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"x","loud":true}}]}`,
		`{"text":"done"}`,
		`{"text":"next"}`), harnessOpts{override: "execute", permission: "full"})
	host := withMCP(t, h, mcp.Stdio).host
	var asked []decision.ApprovalPayload
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		var p decision.ApprovalPayload
		json.Unmarshal(d.Payload, &p)
		asked = append(asked, p)
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	h.send("change", mode.FollowUpInput{})
	if len(asked) != 1 || !asked[0].ToolChanged || !strings.Contains(asked[0].Diff, "-  \"description\"") {
		t.Fatalf("asked: %+v", asked)
	}
	rec := h.recorded()
	lastContains(t, rec.resultsSeen(2), "echo: X")
	v, _ := host.Find("", "notes")
	for _, tv := range v.Tools {
		if tv.Name == "echo" && tv.State != mcp.Approved {
			t.Fatalf("echo after the change was approved: %+v", tv)
		}
	}
	h.send("again", mode.FollowUpInput{})
	if !slices.Contains(toolNames(h.recorded(), 3), "mcp__notes__echo") {
		t.Fatal("the re-approved tool is not offered")
	}
}

func TestMCPCrashFailsTheCallAndTheNextRuns(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"mcp__notes__crash","input":{}}]}`,
		`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"again"}}]}`,
		`{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
	withMCP(t, h, mcp.Stdio)
	h.send("crash it", mode.FollowUpInput{})
	rec := h.recorded()
	lastContains(t, rec.resultsSeen(1), "MCP_SERVER_CRASHED")
	lastContains(t, rec.resultsSeen(1), "starts it again (or, over HTTP, connects to it again) at the next call")
	lastContains(t, rec.resultsSeen(2), "echo: again")
	if h.turns()[0].Status != "done" {
		t.Fatalf("a crashed server fails the call, not the turn: %+v", h.turns()[0])
	}
}

// A remote server that goes away fails the call with a clear error, and so does the next call
// while it is down (nothing of AgentDesk's can start it); once it is back, the next call
// connects afresh.
func TestMCPCrashOverHTTPFailsTheCallAndTheNextReconnects(t *testing.T) {
	h := newHarness(t, script(
		`{"tool_calls":[{"name":"mcp__notes__crash","input":{}}]}`,
		`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"down"}}]}`,
		`{"text":"done"}`,
		`{"tool_calls":[{"name":"mcp__notes__echo","input":{"text":"back"}}]}`,
		`{"text":"done again"}`), harnessOpts{override: "execute", permission: "full"})
	fs := withMCP(t, h, mcp.HTTP)
	h.send("crash it", mode.FollowUpInput{})
	rec := h.recorded()
	lastContains(t, rec.resultsSeen(1), "MCP_SERVER_CRASHED")
	lastContains(t, rec.resultsSeen(1), "“notes”")
	lastContains(t, rec.resultsSeen(2), "MCP_SERVER_UNREACHABLE")
	lastContains(t, rec.resultsSeen(2), "notes")
	if h.turns()[0].Status != "done" {
		t.Fatalf("a gone server fails the call, not the turn: %+v", h.turns()[0])
	}
	startHTTPFixture(t, fs.addr, h.workspace)
	h.send("again", mode.FollowUpInput{})
	lastContains(t, h.recorded().resultsSeen(4), "echo: back")
}

func TestMCPElicitationIsADecision(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr mcp.Transport) {
		h := newHarness(t, script(
			`{"tool_calls":[{"name":"mcp__notes__greet","input":{}}]}`,
			`{"text":"done"}`), harnessOpts{override: "execute", permission: "full"})
		withMCP(t, h, tr)
		var payload decision.ElicitationPayload
		h.onDecision(func(d decision.Decision) *decision.Resolution {
			if d.Kind != decision.KindElicitation {
				t.Errorf("decision kind %s", d.Kind)
				return nil
			}
			json.Unmarshal(d.Payload, &payload)
			res := decision.Elicitation(decision.Accept, map[string]any{"name": "Ada"})
			return &res
		})
		h.send("greet me", mode.FollowUpInput{})
		if payload.Server != "notes" || payload.Tool != "greet" || payload.Message != "Who should I greet?" || !strings.Contains(string(payload.Schema), "Your name") {
			t.Fatalf("payload: %+v", payload)
		}
		lastContains(t, h.recorded().resultsSeen(1), "Hello, Ada!")
	})
}
