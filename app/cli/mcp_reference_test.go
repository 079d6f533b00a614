package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/mcp"
	"agentdesk/backend/mcp/mcptest"
)

// The command line against the MCP protocol's own reference server, server-everything
// (installed from npm by `bash build/scripts/setup.sh test`): added with `agentdesk mcp add`,
// then called by a scripted model through `agentdesk run` in each mode.

// refEnv is a data folder with server-everything added as "everything", and a workspace.
type refEnv struct {
	dir, ws string
	script  string // server-everything's dist/index.js
	added   mcp.ServerView
	addErr  string // what `mcp add` wrote to standard error
}

func newRefEnv(t *testing.T) *refEnv {
	t.Helper()
	return addEverything(t, mcptest.ReferenceServer(t, "server-everything"))
}

// addEverything adds `node script stdio` as the server "everything" in a fresh data folder.
func addEverything(t *testing.T, script string) *refEnv {
	t.Helper()
	e := &refEnv{dir: t.TempDir(), ws: t.TempDir(), script: script}
	code, out, errOut := run(t, nil, "mcp", "add", "everything", "--json", "--data-dir", e.dir, "--", "node", script, "stdio")
	if err := json.Unmarshal([]byte(out), &e.added); code != 0 || err != nil {
		t.Fatalf("mcp add: %d %v\n%s\n%s", code, err, out, errOut)
	}
	e.addErr = errOut
	return e
}

// refRecord is the part of a --record file these tests read.
type refRecord struct {
	Requests []struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			ToolResults []struct {
				Name    string `json:"name"`
				Content string `json:"content"`
				IsError bool   `json:"is_error"`
			} `json:"tool_results"`
		} `json:"messages"`
	} `json:"requests"`
}

// offeredMCP is the MCP tools the model was offered in its first request, sorted.
func (r refRecord) offeredMCP() []string {
	var out []string
	if len(r.Requests) == 0 {
		return nil
	}
	for _, tl := range r.Requests[0].Tools {
		if strings.HasPrefix(tl.Name, "mcp__") {
			out = append(out, tl.Name)
		}
	}
	sort.Strings(out)
	return out
}

// result is what the model got back for its call of name (the last request carries them all).
func (r refRecord) result(t *testing.T, name string) (string, bool) {
	t.Helper()
	if len(r.Requests) > 0 {
		for _, m := range r.Requests[len(r.Requests)-1].Messages {
			for _, tr := range m.ToolResults {
				if tr.Name == name {
					return tr.Content, tr.IsError
				}
			}
		}
	}
	t.Fatalf("the model got no result for %s", name)
	return "", false
}

// refTurn is one `agentdesk run` whose scripted model makes calls (a JSON list of tool calls)
// and then says "done".
type refTurn struct {
	code        int
	out, errOut string
	rec         refRecord
	took        time.Duration
}

// turn runs the calls with flags (--mode, --permission …), without a terminal, and fails the
// test when the run does not end within limit.
func (e *refEnv) turn(t *testing.T, limit time.Duration, calls string, flags ...string) refTurn {
	t.Helper()
	script := writeScript(t, `{"responses":[{"tool_calls":`+calls+`},{"text":"done"}]}`)
	record := filepath.Join(t.TempDir(), "record.json")
	args := append([]string{"run", "--workspace", e.ws, "--data-dir", e.dir, "--script", script, "--record", record}, flags...)
	args = append(args, "call the tools")
	var r refTurn
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		r.code, r.out, r.errOut = run(t, nil, args...)
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("agentdesk run %v did not end within %v", flags, limit)
	}
	r.took = time.Since(start)
	if r.code != ExitOK {
		t.Fatalf("agentdesk run %v: exit %d\n%s\n%s", flags, r.code, r.out, r.errOut)
	}
	checkNoNodeNoise(t, "agentdesk run", r.errOut)
	raw, err := os.ReadFile(record)
	if err != nil || json.Unmarshal(raw, &r.rec) != nil {
		t.Fatalf("record: %v\n%s", err, raw)
	}
	return r
}

// modelNames are the model-facing names of the server's tools; readOnly keeps only those
// annotated read-only.
func (e *refEnv) modelNames(readOnly bool) []string {
	var out []string
	for _, tv := range e.added.Tools {
		if !readOnly || tv.ReadOnly {
			out = append(out, mcp.ModelName("everything", tv.Name))
		}
	}
	sort.Strings(out)
	return out
}

// nodeTrace matches what Node prints for an uncaught error: a stack frame, the throw site, or
// its closing version line.
var nodeTrace = regexp.MustCompile(`(?m)(\bat .+:\d+:\d+\)?$|node:events|throw er;|^.*Node\.js v\d+)`)

// everythingStarted is what server-everything writes to its standard error at start (stdio).
const everythingStarted = "Starting default (STDIO) server..."

// checkNoNodeNoise fails when AgentDesk's standard error carries the server's: its start-up
// line, or Node's report of an uncaught error (an EPIPE from a server cut off while writing).
// A server's standard error goes to its log file in the data folder.
func checkNoNodeNoise(t *testing.T, what, stderr string) {
	t.Helper()
	if strings.Contains(stderr, "EPIPE") || nodeTrace.MatchString(stderr) || strings.Contains(stderr, everythingStarted) {
		t.Errorf("%s: the server's standard error reached AgentDesk's:\n%s", what, stderr)
	}
}

// serverLog is the server's log in the data folder dir.
func serverLog(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "logs", "mcp-"+name+".log"))
	if err != nil {
		t.Fatalf("the log of %s: %v", name, err)
	}
	return string(b)
}

func TestReferenceCLIAddPinsEveryTool(t *testing.T) {
	e := newRefEnv(t)
	if !e.added.Enabled || len(e.added.Tools) < 15 {
		t.Fatalf("added: %+v", e.added)
	}
	for _, tv := range e.added.Tools {
		if tv.State != mcp.Approved {
			t.Errorf("%s is %s after add", tv.Name, tv.State)
		}
	}
	// The server ran (its log says so) and stopped without being cut off, and none of what it
	// wrote reached the terminal.
	checkNoNodeNoise(t, "mcp add", e.addErr)
	log := serverLog(t, e.dir, "everything")
	if !strings.Contains(log, everythingStarted) || strings.Contains(log, "EPIPE") {
		t.Errorf("the server's log after add:\n%s", log)
	}
	if code, out, errOut := run(t, nil, "mcp", "log", "everything", "--data-dir", e.dir); code != 0 || !strings.Contains(out, everythingStarted) {
		t.Errorf("mcp log: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut := run(t, nil, "mcp", "list", "--data-dir", e.dir)
	want := strconv.Itoa(len(e.added.Tools)) + " approved"
	if code != 0 || !strings.Contains(out, "everything") || !strings.Contains(out, want) {
		t.Fatalf("list: %d, want %q\n%s\n%s", code, want, out, errOut)
	}
	var listed []mcp.ServerView
	_, out, _ = run(t, nil, "mcp", "list", "--json", "--data-dir", e.dir)
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed) != 1 || len(listed[0].Tools) != len(e.added.Tools) {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	for _, tv := range listed[0].Tools {
		if tv.State != mcp.Approved {
			t.Errorf("%s listed as %s", tv.Name, tv.State)
		}
	}
}

// In Full (permission full, execute) every tool is offered and the call runs.
func TestReferenceCLIFullRunsTheCall(t *testing.T) {
	e := newRefEnv(t)
	echo := mcp.ModelName("everything", "echo")
	if echo != "mcp__everything__echo" {
		t.Fatalf("the model's name for echo: %s", echo)
	}
	r := e.turn(t, 60*time.Second, `[{"name":"`+echo+`","input":{"message":"from the model"}}]`, "--mode", "execute", "--permission", "full")
	if got := r.rec.offeredMCP(); !slices.Equal(got, e.modelNames(false)) {
		t.Errorf("offered in Full:\n  %v\nwant every tool\n  %v", got, e.modelNames(false))
	}
	if out, isErr := r.rec.result(t, echo); isErr || out != "Echo: from the model" {
		t.Errorf("the model got %q (error %v)", out, isErr)
	}
	if !strings.Contains(r.out, "Echo: from the model") {
		t.Errorf("the output lacks the result:\n%s", r.out)
	}
}

// Chat offers no tool, and a call the model makes anyway is refused without running.
func TestReferenceCLIChatOffersNoMCPTool(t *testing.T) {
	e := newRefEnv(t)
	echo := mcp.ModelName("everything", "echo")
	r := e.turn(t, 60*time.Second, `[{"name":"`+echo+`","input":{"message":"in chat"}}]`, "--mode", "chat", "--permission", "full")
	if got := r.rec.offeredMCP(); len(got) != 0 {
		t.Errorf("Chat offered %v", got)
	}
	if out, isErr := r.rec.result(t, echo); !isErr || !strings.Contains(out, "TOOL_DISABLED_IN_CHAT") || strings.Contains(out, "Echo:") {
		t.Errorf("a call in Chat: %q (error %v)", out, isErr)
	}
}

// Plan offers only the tools annotated read-only, and even those ask: headless, declined. A tool
// without the annotation is refused outright.
func TestReferenceCLIPlanOffersReadOnlyToolsThatStillAsk(t *testing.T) {
	e := newRefEnv(t)
	echo, toggle := mcp.ModelName("everything", "echo"), mcp.ModelName("everything", "toggle-simulated-logging")
	ro := e.modelNames(true)
	if !slices.Contains(ro, echo) || slices.Contains(ro, toggle) || len(ro) == len(e.modelNames(false)) {
		t.Fatalf("read-only tools as pinned: %v", ro)
	}
	calls := `[{"name":"` + echo + `","input":{"message":"in plan"}},{"name":"` + toggle + `","input":{}}]`
	r := e.turn(t, 60*time.Second, calls, "--mode", "plan", "--permission", "full")
	if got := r.rec.offeredMCP(); !slices.Equal(got, ro) {
		t.Errorf("offered in Plan:\n  %v\nwant the read-only ones\n  %v", got, ro)
	}
	if out, isErr := r.rec.result(t, echo); !isErr || !strings.Contains(out, "REJECTED_BY_USER") || strings.Contains(out, "Echo:") {
		t.Errorf("a read-only tool in Plan, headless: %q (error %v)", out, isErr)
	}
	if !strings.Contains(r.out, "[asked]") {
		t.Errorf("the read-only call did not ask:\n%s", r.out)
	}
	if out, isErr := r.rec.result(t, toggle); !isErr || !strings.Contains(out, "MCP_DISABLED_IN_READ_ONLY") {
		t.Errorf("a tool without the read-only annotation in Plan: %q (error %v)", out, isErr)
	}
}

// Ask asks before a tool that may change something runs: headless, declined, and it did not run.
func TestReferenceCLIAskDeclinesAWriteCapableToolHeadless(t *testing.T) {
	e := newRefEnv(t)
	toggle := mcp.ModelName("everything", "toggle-simulated-logging")
	r := e.turn(t, 60*time.Second, `[{"name":"`+toggle+`","input":{}}]`, "--mode", "execute", "--permission", "ask")
	if got := r.rec.offeredMCP(); !slices.Equal(got, e.modelNames(false)) {
		t.Errorf("offered in execute under Ask:\n  %v\nwant every tool\n  %v", got, e.modelNames(false))
	}
	out, isErr := r.rec.result(t, toggle)
	if !isErr || !strings.Contains(out, "REJECTED_BY_USER") || !strings.Contains(out, "non-interactive") || strings.Contains(out, "Started simulated") {
		t.Errorf("a write-capable tool under Ask, headless: %q (error %v)", out, isErr)
	}
}

// Pinning against a real server's upgrade: a copy of server-everything is added, then its echo
// tool's definition changes on disk (as `npm update` would change it). The changed tool is no
// longer offered and a call is refused; `mcp list` shows the change, and once approved it runs.
func TestReferenceCLIChangedDefinitionIsRefusedUntilApproved(t *testing.T) {
	// .../node_modules/@modelcontextprotocol/server-everything/dist/index.js: the whole install.
	src := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(mcptest.ReferenceServer(t, "server-everything")))))
	modules := filepath.Join(t.TempDir(), "node_modules")
	if out, err := exec.Command("cp", "-a", src, modules).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", src, err, out)
	}
	everything := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist")
	e := addEverything(t, filepath.Join(everything, "index.js"))
	echo := mcp.ModelName("everything", "echo")
	r := e.turn(t, 60*time.Second, `[{"name":"`+echo+`","input":{"message":"before"}}]`, "--mode", "execute", "--permission", "full")
	if out, _ := r.rec.result(t, echo); out != "Echo: before" {
		t.Fatalf("before the change: %q", out)
	}
	echoJS := filepath.Join(everything, "tools", "echo.js")
	body, err := os.ReadFile(echoJS)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(body), `description: "Echoes back the input string"`, `description: "Echoes back the input string, and mails it home"`, 1)
	if changed == string(body) {
		t.Fatal("echo.js no longer holds the description this test changes")
	}
	if err := os.WriteFile(echoJS, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	r = e.turn(t, 60*time.Second, `[{"name":"`+echo+`","input":{"message":"after"}}]`, "--mode", "execute", "--permission", "full")
	if slices.Contains(r.rec.offeredMCP(), echo) {
		t.Error("the changed echo is still offered")
	}
	// The changed tool's call is put to the person; a run without a terminal declines it, and
	// the model is told so (with the reason the run gives), the tool never having run.
	if out, isErr := r.rec.result(t, echo); !isErr || !strings.Contains(out, string(mcp.ToolChanged)) && !strings.Contains(out, "non-interactive") || strings.Contains(out, "Echo:") {
		t.Errorf("a call of the changed echo: %q (error %v)", out, isErr)
	}
	code, out, _ := run(t, nil, "mcp", "list", "--data-dir", e.dir)
	if code != 0 || !strings.Contains(out, "mcp:everything/echo") || !strings.Contains(out, "+ ") || !strings.Contains(out, "mails it home") {
		t.Fatalf("list after the change:\n%s", out)
	}
	if code, _, errOut := run(t, nil, "mcp", "approve", "everything", "echo", "--data-dir", e.dir); code != 0 {
		t.Fatalf("approve: %d %s", code, errOut)
	}
	r = e.turn(t, 60*time.Second, `[{"name":"`+echo+`","input":{"message":"approved"}}]`, "--mode", "execute", "--permission", "full")
	if out, isErr := r.rec.result(t, echo); isErr || out != "Echo: approved" {
		t.Errorf("the approved change: %q (error %v)", out, isErr)
	}
}

// A server's sampling request in a run without a terminal: no one can approve it, so it is
// declined at once, the server is told so and reports it as the tool's failure, and the run
// ends (rather than hanging on a decision or crashing the server).
func TestReferenceCLISamplingIsDeclinedHeadless(t *testing.T) {
	e := newRefEnv(t)
	sample := mcp.ModelName("everything", "trigger-sampling-request")
	if !slices.Contains(e.modelNames(false), sample) {
		t.Fatalf("server-everything did not list %s: AgentDesk does not advertise sampling", sample)
	}
	r := e.turn(t, 30*time.Second, `[{"name":"`+sample+`","input":{"prompt":"write a poem","maxTokens":50}}]`,
		"--mode", "execute", "--permission", "full")
	out, isErr := r.rec.result(t, sample)
	if !isErr || !strings.Contains(out, "No one to answer") || strings.Contains(out, "LLM sampling result") {
		t.Errorf("a sampling request headless: %q (error %v)", out, isErr)
	}
	if !strings.Contains(r.errOut, "Declined a decision") {
		t.Errorf("the run does not say it declined:\n%s", r.errOut)
	}
	t.Logf("the sampling run took %v; the model read %q", r.took, out)
}

// A long call's progress notices are printed as they arrive: "n/total" lines in text, events
// named tool.progress with --json.
func TestReferenceCLIRunPrintsProgress(t *testing.T) {
	e := newRefEnv(t)
	long := mcp.ModelName("everything", "trigger-long-running-operation")
	call := `[{"name":"` + long + `","input":{"duration":1,"steps":4}}]`
	r := e.turn(t, 60*time.Second, call, "--mode", "execute", "--permission", "full")
	var seen []string
	for _, n := range []string{"1/4", "2/4", "3/4", "4/4"} {
		if regexp.MustCompile(`(?m)^.*\b` + n + `\b.*$`).MatchString(r.out) {
			seen = append(seen, n)
		}
	}
	if len(seen) < 3 {
		t.Fatalf("progress lines (want several of 1/4…4/4, saw %v):\n%s", seen, r.out)
	}
	if i, j := strings.Index(r.out, seen[0]), strings.Index(r.out, "Long running operation completed"); i < 0 || j < 0 || i > j {
		t.Errorf("the progress does not come before the result:\n%s", r.out)
	}
	r = e.turn(t, 60*time.Second, call, "--mode", "execute", "--permission", "full", "--json")
	var progress []float64
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n") {
		var ev struct {
			Name string `json:"name"`
			Data struct {
				Progress float64 `json:"progress"`
				Total    float64 `json:"total"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not NDJSON: %q", line)
		}
		if ev.Name == "tool.progress" {
			if ev.Data.Total != 4 {
				t.Errorf("a progress event: %s", line)
			}
			progress = append(progress, ev.Data.Progress)
		}
	}
	if len(progress) < 3 || !slices.IsSorted(progress) {
		t.Errorf("tool.progress events: %v", progress)
	}
}
