package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// testHost is a host over a fresh store, with an environment the test controls.
type testHost struct {
	*Host
	t         *testing.T
	st        *store.Store
	dataDir   string
	workspace string

	mu     sync.Mutex
	env    map[string]string
	events []ChangedView
}

func newTestHost(t *testing.T) *testHost {
	t.Helper()
	th := &testHost{t: t, dataDir: t.TempDir(), workspace: t.TempDir(), env: map[string]string{}}
	st, err := store.Open(th.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	th.st = st
	th.Host = NewHost(st, Options{DataDir: th.dataDir, Version: "test", Getenv: th.getenv,
		Publish: func(name string, data any) {
			th.mu.Lock()
			defer th.mu.Unlock()
			th.events = append(th.events, data.(ChangedView))
		}})
	t.Cleanup(func() {
		th.Close(context.Background())
		st.Close()
	})
	return th
}

func (th *testHost) getenv(k string) string {
	th.mu.Lock()
	defer th.mu.Unlock()
	return th.env[k]
}

func (th *testHost) setenv(k, v string) {
	th.mu.Lock()
	th.env[k] = v
	th.mu.Unlock()
}

// addFixture adds and enables the stdio fixture; its variant follows ${VARIANT}.
func (th *testHost) addFixture(name string, network bool) ServerView {
	th.t.Helper()
	v, err := th.Add(Config{Name: name, Transport: Stdio, Command: fixture, Network: network,
		Env: map[string]string{"MCP_FIXTURE_VARIANT": "${VARIANT:-}"}}, "test")
	if err != nil {
		th.t.Fatal(err)
	}
	if v, err = th.Enable(context.Background(), v.ID, th.workspace); err != nil {
		th.t.Fatal(err)
	}
	return v
}

func (th *testHost) lookup(name string) *Tool {
	th.t.Helper()
	t, err := th.Lookup(context.Background(), "s1", th.workspace, name)
	if err != nil || t == nil {
		th.t.Fatalf("no tool %s: %v", name, err)
	}
	return t.(*Tool)
}

func (th *testHost) run(name string, input string, env tool.Env) (tool.Result, error) {
	return th.lookup(name).Run(context.Background(), env, json.RawMessage(input))
}

func offeredNames(th *testHost) []string {
	var out []string
	for _, t := range th.Offered(context.Background(), "s1", th.workspace) {
		out = append(out, string(t.Name()))
	}
	return out
}

func TestStdioServerListsItsToolsAndRunsThem(t *testing.T) {
	th := newTestHost(t)
	v := th.addFixture("notes", false)
	if !v.Enabled || len(v.Tools) != 9 {
		t.Fatalf("enabled view: %+v", v)
	}
	for _, tv := range v.Tools {
		if tv.State != Approved || tv.Rule != "mcp:notes/"+tv.Name {
			t.Errorf("tool after enable: %+v", tv)
		}
	}
	names := strings.Join(offeredNames(th), " ")
	for _, want := range []string{"mcp__notes__echo", "mcp__notes__write_note", "mcp__notes__greet", "mcp__notes__crash"} {
		if !strings.Contains(names, want) {
			t.Errorf("offered %s, missing %s", names, want)
		}
	}
	echo := th.lookup("mcp__notes__echo")
	if !echo.ReadOnlyHint() || echo.Server() != "notes" || !strings.Contains(echo.Description(), "Echoes the text back.") {
		t.Fatalf("echo: read-only %v, %q", echo.ReadOnlyHint(), echo.Description())
	}
	if th.lookup("mcp__notes__write_note").ReadOnlyHint() {
		t.Fatal("write_note has no read-only annotation")
	}
	res, err := th.run("mcp__notes__echo", `{"text":"hi"}`, tool.Env{})
	if err != nil || res.Output != "echo: hi" || res.IsError {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	call, err := echo.Describe(json.RawMessage(`{"text":"hi"}`))
	if err != nil || call.Gate.MCP.Name() != "notes/echo" || !call.Gate.MCP.ReadOnlyHint || !strings.Contains(call.Summary, `"text": "hi"`) {
		t.Fatalf("describe: %+v, %v", call, err)
	}
	if _, err := echo.Describe(json.RawMessage(`{"text":3}`)); errs.KindOf(err) != tool.InvalidToolInput {
		t.Fatalf("input against the pinned schema: %v", err)
	}
	if _, err := echo.Describe(json.RawMessage(`[1]`)); errs.KindOf(err) != tool.InvalidToolInput {
		t.Fatalf("input that is no object: %v", err)
	}
}

func TestWorkspaceServerReplacesAGlobalOneOfTheSameName(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	other := t.TempDir()
	if _, err := th.Add(Config{Name: "notes", Workspace: other, Transport: HTTP, URL: "http://127.0.0.1:9/mcp"}, "test"); err != nil {
		t.Fatal(err)
	}
	servers, err := th.inScope("s1", other)
	if err != nil || len(servers) != 1 || servers[0].cfg.Transport != Stdio {
		t.Fatalf("a disabled workspace server leaves the global one: %+v, %v", servers, err)
	}
	list, _ := th.List(other)
	if len(list) != 2 {
		t.Fatalf("the workspace sees both: %+v", list)
	}
	if list, _ := th.List(th.workspace); len(list) != 1 {
		t.Fatalf("another workspace sees the global one only: %+v", list)
	}
}

func TestChangedDefinitionDisablesTheToolUntilApproved(t *testing.T) {
	th := newTestHost(t)
	v := th.addFixture("notes", false)
	if res, err := th.run("mcp__notes__evolve", `{}`, tool.Env{}); err != nil || res.Output != "echo changed" {
		t.Fatalf("evolve: %+v, %v", res, err)
	}
	changed := waitFor(t, "echo to read as changed", func() (ToolView, bool) {
		sv, _ := th.Find("", "notes")
		for _, tv := range sv.Tools {
			if tv.Name == "echo" && tv.State == Changed {
				return tv, true
			}
		}
		return ToolView{}, false
	})
	if strings.Contains(strings.Join(offeredNames(th), " "), "mcp__notes__echo") {
		t.Fatal("a changed tool is still offered")
	}
	if _, err := th.run("mcp__notes__echo", `{"text":"hi","loud":true}`, tool.Env{}); errs.KindOf(err) != ToolChanged {
		t.Fatalf("calling a changed tool: %v", err)
	}
	diff := diffText(changed.Diff)
	if !strings.Contains(diff, "-  \"description\": \"Echoes the text back.\",") || !strings.Contains(diff, "+      \"loud\": {") {
		t.Fatalf("diff:\n%s", diff)
	}
	th.mu.Lock()
	announced := len(th.events) > 0
	th.mu.Unlock()
	if !announced {
		t.Fatal("the change was not announced")
	}
	if _, err := th.Approve(v.ID, "echo", `{"description":"something else"}`); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("approving a definition other than the one listed: %v", err)
	}
	if _, err := th.Approve(v.ID, "echo", changed.Seen); err != nil {
		t.Fatal(err)
	}
	res, err := th.run("mcp__notes__echo", `{"text":"hi","loud":true}`, tool.Env{})
	if err != nil || res.Output != "echo: HI" {
		t.Fatalf("the approved change runs: %+v, %v", res, err)
	}
}

func diffText(lines []DiffLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Op + l.Text + "\n")
	}
	return b.String()
}

func TestCrashedServerFailsTheCallAndRestartsAtTheNext(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	if _, err := th.run("mcp__notes__echo", `{"text":"before"}`, tool.Env{}); err != nil {
		t.Fatal(err)
	}
	first := th.pid(t, "notes")
	_, err := th.run("mcp__notes__crash", `{}`, tool.Env{})
	e := errs.As(err)
	if e.Kind != ServerCrashed || e.Args["Server"] != "notes" {
		t.Fatalf("crash: %v", err)
	}
	if p := e.Args["Problem"].(string); !strings.Contains(p, "exit status 3") || !strings.Contains(p, "crashing on purpose") {
		t.Fatalf("the crash says why: %q", p)
	}
	res, err := th.run("mcp__notes__echo", `{"text":"after"}`, tool.Env{})
	if err != nil || res.Output != "echo: after" {
		t.Fatalf("the next call restarts the server: %+v, %v", res, err)
	}
	if second := th.pid(t, "notes"); second == first {
		t.Fatal("the restarted server is the same process")
	}
}

// A server that lists something else after a restart (an update) is held to its pins.
func TestRestartedServerWithAChangedSchemaIsHeldToItsPins(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	th.setenv("VARIANT", "changed")
	if _, err := th.run("mcp__notes__crash", `{}`, tool.Env{}); errs.KindOf(err) != ServerCrashed {
		t.Fatalf("crash: %v", err)
	}
	if _, err := th.run("mcp__notes__echo", `{"text":"hi"}`, tool.Env{}); errs.KindOf(err) != ToolChanged {
		t.Fatalf("after a restart into a changed schema: %v", err)
	}
}

func (th *testHost) pid(t *testing.T, name string) int {
	t.Helper()
	th.mu.Lock()
	defer th.mu.Unlock()
	for _, sl := range th.slots {
		if c := sl.current(); c != nil && c.name == name && c.proc != nil {
			return c.proc.cmd.Process.Pid
		}
	}
	t.Fatalf("no running %s", name)
	return 0
}

func TestCloseStopsTheServersProcessGroup(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	if _, err := th.run("mcp__notes__echo", `{"text":"x"}`, tool.Env{}); err != nil {
		t.Fatal(err)
	}
	pid := th.pid(t, "notes")
	echo := th.lookup("mcp__notes__echo")
	if err := th.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("/proc", itoa(pid))); !os.IsNotExist(err) {
		t.Fatalf("server %d still runs after Close", pid)
	}
	if _, err := echo.Run(context.Background(), tool.Env{}, json.RawMessage(`{"text":"x"}`)); errs.KindOf(err) != ServerUnavailable {
		t.Fatalf("a closed host starts nothing: %v", err)
	}
}

func TestResultsAreCappedLikeBuiltInTools(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	res, err := th.run("mcp__notes__big", `{"bytes":300000}`, tool.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Output) > tool.OutputCap+100 || !res.Truncated || !strings.HasPrefix(res.Output, "BEGIN") ||
		!strings.HasSuffix(res.Output, "END") || !strings.Contains(res.Output, "bytes omitted") {
		t.Fatalf("capped output: %d bytes, truncated %v, %q…", len(res.Output), res.Truncated, res.Output[:20])
	}
}

func TestElicitationReachesTheCallThatAsked(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	var got tool.Elicitation
	accept := func(_ context.Context, e tool.Elicitation) (tool.ElicitAnswer, error) {
		got = e
		return tool.ElicitAnswer{Action: "accept", Content: map[string]any{"name": "Ada", "language": "zh"}}, nil
	}
	res, err := th.run("mcp__notes__greet", `{}`, tool.Env{Elicit: accept})
	if err != nil || res.Output != "你好, Ada!" {
		t.Fatalf("greet: %+v, %v", res, err)
	}
	if got.Server != "notes" || got.Tool != "greet" || got.Message != "Who should I greet?" || !strings.Contains(string(got.Schema), `"Your name"`) {
		t.Fatalf("elicitation: %+v", got)
	}
	decline := func(context.Context, tool.Elicitation) (tool.ElicitAnswer, error) {
		return tool.ElicitAnswer{Action: "decline"}, nil
	}
	if res, _ := th.run("mcp__notes__greet", `{}`, tool.Env{Elicit: decline}); res.Output != "greeting declined" {
		t.Fatalf("declined: %+v", res)
	}
	if res, _ := th.run("mcp__notes__greet", `{}`, tool.Env{}); res.Output != "greeting cancelled" {
		t.Fatalf("no one to answer: %+v", res)
	}
}

func TestDisabledServerAndToolAreNotOffered(t *testing.T) {
	th := newTestHost(t)
	v := th.addFixture("notes", false)
	if _, err := th.SetToolOff(v.ID, "write_note", true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(offeredNames(th), " "), "write_note") {
		t.Fatal("a tool switched off is offered")
	}
	if _, err := th.run("mcp__notes__write_note", `{"name":"a","text":"b"}`, tool.Env{}); errs.KindOf(err) != ToolOff {
		t.Fatalf("calling a tool switched off: %v", err)
	}
	if _, err := th.Disable(v.ID); err != nil {
		t.Fatal(err)
	}
	if names := offeredNames(th); len(names) != 0 {
		t.Fatalf("a disabled server offers %v", names)
	}
	if err := th.Remove(v.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := th.List(""); len(list) != 0 {
		t.Fatalf("after remove: %+v", list)
	}
}

func TestAServerThatCannotStartSaysWhy(t *testing.T) {
	th := newTestHost(t)
	v, err := th.Add(Config{Name: "broken", Transport: Stdio, Command: "/nonexistent/server"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := th.Enable(context.Background(), v.ID, th.workspace); errs.KindOf(err) != CommandNotFound {
		t.Fatalf("enable: %v", err)
	}
	v2, _ := th.Add(Config{Name: "needs-token", Transport: Stdio, Command: fixture, Env: map[string]string{"TOKEN": "${API_TOKEN}"}}, "test")
	_, err = th.Enable(context.Background(), v2.ID, th.workspace)
	if e := errs.As(err); e.Kind != ServerUnavailable || !strings.Contains(e.Args["Problem"].(string), "$API_TOKEN") {
		t.Fatalf("a missing variable: %v", err)
	}
	// Enabled while the variable was set, it fails at its next start: the status carries the
	// typed error, to be shown in words like every other error.
	th.setenv("API_TOKEN", "t")
	if _, err := th.Enable(context.Background(), v2.ID, th.workspace); err != nil {
		t.Fatal(err)
	}
	th.setenv("API_TOKEN", "")
	th.Offered(context.Background(), "s1", th.workspace)
	got, _ := th.Find("", "needs-token")
	if got.Status.State != "failed" || got.Status.Code != string(ServerUnavailable) || got.Status.Args["Server"] != "needs-token" {
		t.Fatalf("status: %+v", got.Status)
	}
}

func waitFor[T any](t *testing.T, what string, fn func() (T, bool)) T {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if v, ok := fn(); ok {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A server added is started once to list its tools for review, none of them pinned or offered;
// enabling it with the tools the person saw pins those only, and one that differs waits.
func TestAddedServerListsItsToolsForReviewBeforeAnyIsOn(t *testing.T) {
	th := newTestHost(t)
	v, err := th.Add(Config{Name: "notes", Transport: Stdio, Command: fixture}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if v, err = th.Review(context.Background(), v.ID, th.workspace); err != nil {
		t.Fatal(err)
	}
	if v.Enabled || len(v.Tools) != 9 {
		t.Fatalf("reviewed view: %+v", v)
	}
	reviewed := map[string]string{}
	for _, tv := range v.Tools {
		if tv.State != New || tv.Seen == "" || tv.Description == "" {
			t.Errorf("a tool under review: %+v", tv)
		}
		reviewed[tv.Name] = tv.Seen
	}
	if names := offeredNames(th); len(names) != 0 {
		t.Fatalf("offered before the server was enabled: %v", names)
	}
	reviewed["greet"] = `{"description":"something else"}`
	if v, err = th.EnableReviewed(context.Background(), v.ID, th.workspace, reviewed); err != nil {
		t.Fatal(err)
	}
	for _, tv := range v.Tools {
		if want := map[bool]ToolState{true: New, false: Approved}[tv.Name == "greet"]; tv.State != want {
			t.Errorf("%s after enable: %s, want %s", tv.Name, tv.State, want)
		}
	}
}

// A mistyped command is fixed in place: the server keeps its name, goes off, and its tools
// are listed for review under the new command.
func TestEditFixesAServersCommandInPlace(t *testing.T) {
	th := newTestHost(t)
	v, err := th.Add(Config{Name: "notes", Transport: Stdio, Command: fixture + "-typo"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := th.Review(context.Background(), v.ID, th.workspace); errs.KindOf(err) != CommandNotFound {
		t.Fatalf("review of a mistyped command: %v", err)
	}
	if _, err := th.Add(Config{Name: "notes", Transport: Stdio, Command: fixture}, "test"); errs.KindOf(err) != errs.AlreadyExists {
		t.Fatalf("adding it again: %v", err)
	}
	edited, err := th.Edit(context.Background(), v.ID, Config{Name: "ignored", Transport: Stdio, Command: fixture, Args: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if edited.ID != v.ID || edited.Name != "notes" || edited.Command != fixture || edited.Enabled || len(edited.Tools) != 9 {
		t.Fatalf("edited: %+v", edited)
	}
	if _, err := th.Edit(context.Background(), v.ID, Config{Transport: Stdio}); errs.KindOf(err) == "" {
		t.Fatal("an empty command was accepted")
	}
}
