package client

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// fixture is the command line of the TypeScript fixture agent (testdata/node/fixtures), built
// with the official ACP SDK. Only a missing node skips; missing packages fail with the fix.
func fixture(t *testing.T) string { return fixtureCommand(t) }

func fixtureCommand(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the external-agent tests drive a TypeScript ACP agent")
	}
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		t.Fatalf("the ACP SDK is not installed: run `npm ci` in %s (make setup does)", dir)
	}
	return fmt.Sprintf("%q %q", node, filepath.Join(dir, "fixtures", "agent.mjs"))
}

// rig is a real runtime whose sessions may run on external agents: a SQLite store, the
// decision registry, and a pool of agent processes.
type rig struct {
	t    *testing.T
	st   *store.Store
	rt   *agent.Runtime
	reg  *decision.Registry
	pool *Pool
	svc  *session.Service
	cmd  string

	bus    *bus.Bus
	mu     sync.Mutex
	events []bus.Event
	answer func(decision.Decision) *decision.Resolution
}

// keepStateIn lets the fixture agent write its sessions in dir from inside the sandbox.
func (r *rig) keepStateIn(dir string) {
	r.t.Helper()
	if err := r.st.SetAgentReach(r.cmd, &store.AgentReach{Folders: []string{dir}}); err != nil {
		r.t.Fatal(err)
	}
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{t: t, cmd: fixture(t)}
	var err error
	dataDir := t.TempDir()
	if r.st, err = store.Open(dataDir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.st.Close() })
	b := bus.New()
	r.bus = b
	b.Subscribe(r.observe)
	t.Cleanup(func() { b.Close(context.Background()) })
	r.reg = decision.New(r.st, b.Publish, decision.Options{Timeout: func() time.Duration { return time.Minute }})
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	prov, err := scripted.FromBytes("unused", []byte(`{"responses":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	logs := &testLog{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log("agent stderr:\n" + logs.String())
		}
	})
	r.pool = NewPool(logs)
	t.Cleanup(r.pool.Close)
	r.rt = agent.New(agent.Options{Store: r.st, Publish: b.Publish, Decisions: r.reg, Tools: tool.NewRegistry(),
		Provider: agent.Fixed(prov), Messages: msgs, DataDir: dataDir, External: r.pool})
	r.svc = &session.Service{Store: r.st}
	if err := r.st.SetExternalAgents([]string{r.cmd}); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig) msgs(t *testing.T) *i18n.Bundle {
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// onDecision answers the decisions asked from now on with fn, from the rig's bus subscriber.
func (r *rig) onDecision(fn func(decision.Decision) *decision.Resolution) {
	r.mu.Lock()
	r.answer = fn
	r.mu.Unlock()
}

// seen is every event the rig's subscriber has handled, once it has caught up.
func (r *rig) seen() []bus.Event {
	r.bus.Sync(context.Background())
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]bus.Event(nil), r.events...)
}

func (r *rig) observe(e bus.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	answer := r.answer
	r.mu.Unlock()
	if e.Name == decision.EventAsked && answer != nil {
		d := e.Data.(decision.Decision)
		if res := answer(d); res != nil {
			go r.reg.Resolve(d.ID, *res)
		}
	}
}

func (r *rig) newSession() string {
	r.t.Helper()
	v, err := CreateSession(r.svc, session.CreateInput{Title: "external", Workspace: r.t.TempDir()}, r.cmd)
	if err != nil {
		r.t.Fatal(err)
	}
	return v.ID
}

// send runs one message to the end of its turn and returns that turn.
func (r *rig) send(sessionID, text string) store.Turn {
	r.t.Helper()
	ack, err := r.rt.Send(agent.Input{SessionID: sessionID, Text: text})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.rt.Wait(ctx, sessionID); err != nil {
		r.t.Fatalf("the turn did not end: %v", err)
	}
	return r.turn(sessionID, ack.TurnID)
}

func (r *rig) turn(sessionID, id string) store.Turn {
	turns, err := r.st.Turns(sessionID)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, t := range turns {
		if t.ID == id {
			return t
		}
	}
	r.t.Fatalf("no turn %s", id)
	return store.Turn{}
}

// said is everything the agent said in the session, as the log recorded it.
func (r *rig) said(sessionID string) string {
	events, err := r.st.Events(sessionID)
	if err != nil {
		r.t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range events {
		if m, ok := eventlog.Decode(e.Seq, e.Type, []byte(e.Payload)).(eventlog.AssistantMessage); ok {
			b.WriteString(m.Text)
		}
	}
	return b.String()
}

func (r *rig) results(sessionID string) []eventlog.ToolResult {
	events, _ := r.st.Events(sessionID)
	var out []eventlog.ToolResult
	for _, e := range events {
		if rec, ok := eventlog.Decode(e.Seq, e.Type, []byte(e.Payload)).(eventlog.ToolResult); ok {
			out = append(out, rec)
		}
	}
	return out
}

func TestPermissionRequestBecomesAnApprovalDecision(t *testing.T) {
	r := newRig(t)
	id := r.newSession()
	var asked []decision.Decision
	var mu sync.Mutex
	choice := decision.AllowOnce
	r.onDecision(func(d decision.Decision) *decision.Resolution {
		mu.Lock()
		asked = append(asked, d)
		mu.Unlock()
		res := decision.Approval(choice, "")
		return &res
	})
	turn := r.send(id, "permission please")
	if turn.Status != store.TurnDone {
		t.Fatalf("turn %s: %s", turn.Status, turn.Error)
	}
	if len(asked) != 1 || asked[0].Kind != decision.KindApproval || asked[0].SessionID != id || asked[0].TurnID != turn.ID {
		t.Fatalf("one approval decision of this turn: %+v", asked)
	}
	var p decision.ApprovalPayload
	json.Unmarshal(asked[0].Payload, &p)
	if p.Tool != "Run tests" || p.Command != "npm test" || !strings.Contains(p.Summary, "npm test") {
		t.Fatalf("the approval shows the agent's call: %+v", p)
	}
	if got := r.said(id); !strings.Contains(got, "permission outcome: yes") {
		t.Fatalf("allow once reached the agent as its allow_once option: %q", got)
	}
	res := r.results(id)
	if len(res) != 1 || res[0].Approved != "allow_once" || res[0].IsError || res[0].Content != "42 tests passed" {
		t.Fatalf("the call's result is recorded with the answer: %+v", res)
	}

	choice = decision.Reject
	if turn := r.send(id, "permission again"); turn.Status != store.TurnDone {
		t.Fatalf("turn %s: %s", turn.Status, turn.Error)
	}
	if got := r.said(id); !strings.Contains(got, "permission outcome: no") {
		t.Fatalf("a rejection reached the agent as its reject_once option: %q", got)
	}
	if res := r.results(id); len(res) != 2 || !res[1].IsError || res[1].Approved != "rejected" {
		t.Fatalf("the rejected call failed: %+v", res)
	}
}

func TestChatIsRefusedForAnExternalAgent(t *testing.T) {
	r := newRig(t)
	chat := "chat"
	_, err := CreateSession(r.svc, session.CreateInput{Title: "t", Workspace: t.TempDir(), Mode: mode.FollowUpInput{InteractionMode: &chat}}, r.cmd)
	if errs.KindOf(err) != external.ChatRefused {
		t.Fatalf("create in Chat: %v", err)
	}
	if _, err := CreateSession(r.svc, session.CreateInput{Title: "t", Workspace: t.TempDir()}, "goose acp"); errs.KindOf(err) != ExternalAgentNotSaved {
		t.Fatalf("a command line not saved in Settings: %v", err)
	}
	id := r.newSession()
	if _, err := r.rt.Configure(id, mode.FollowUpInput{InteractionMode: &chat}); errs.KindOf(err) != external.ChatRefused {
		t.Fatalf("switch to Chat: %v", err)
	}
	if _, err := r.rt.Send(agent.Input{SessionID: id, Text: "hello", Mode: mode.FollowUpInput{InteractionMode: &chat}}); errs.KindOf(err) != external.ChatRefused {
		t.Fatalf("a message in Chat: %v", err)
	}
	if state, _ := r.st.ModeInForce(id); state.Preference != mode.Default {
		t.Fatalf("nothing changed: %+v", state.Preference)
	}
	msgs, _ := i18n.Load()
	en := msgs.Error("en", errs.New(external.ChatRefused, "Agent", "goose acp"))
	zh := msgs.Error("zh-CN", errs.New(external.ChatRefused, "Agent", "goose acp"))
	if !strings.Contains(en, "no-tool contract") || zh == en || !strings.Contains(zh, "goose acp") {
		t.Fatalf("the refusal is localized: %q / %q", en, zh)
	}
}

func TestCrashedAgentEndsTheTurnWithAnError(t *testing.T) {
	r := newRig(t)
	id := r.newSession()
	turn := r.send(id, "crash now")
	if turn.Status != store.TurnFailed || !strings.HasPrefix(turn.Error, string(external.AgentFailed)) ||
		!strings.Contains(turn.Error, "crashing on purpose") {
		t.Fatalf("a crash fails the turn with a clear error: %s %q", turn.Status, turn.Error)
	}
	if got := r.said(id); got != "about to crash" {
		t.Fatalf("what the agent said before it died is kept: %q", got)
	}
	if turn := r.send(id, "hello again"); turn.Status != store.TurnDone || !strings.Contains(r.said(id), "Hello from the fixture") {
		t.Fatalf("the next turn starts the agent afresh: %s %q", turn.Status, turn.Error)
	}
}

func TestNonsenseEndsTheTurnWithAProtocolError(t *testing.T) {
	r := newRig(t)
	id := r.newSession()
	turn := r.send(id, "garbage")
	if turn.Status != store.TurnFailed || !strings.HasPrefix(turn.Error, string(external.AgentProtocol)) ||
		!strings.Contains(turn.Error, "this is not json") {
		t.Fatalf("nonsense fails the turn and says what came: %s %q", turn.Status, turn.Error)
	}
}

func TestModesMapWhereIDsMatch(t *testing.T) {
	r := newRig(t)
	id := r.newSession()
	plan := "plan"
	if _, err := r.rt.Configure(id, mode.FollowUpInput{ExecutionOverride: &plan}); err != nil {
		t.Fatal(err)
	}
	if turn := r.send(id, "hello"); turn.Status != store.TurnDone || !strings.Contains(r.said(id), "in mode plan") {
		t.Fatalf("Smart · Plan selects the agent's plan mode: %q", r.said(id))
	}
	none := ""
	if _, err := r.rt.Configure(id, mode.FollowUpInput{ExecutionOverride: &none}); err != nil {
		t.Fatal(err)
	}
	r.send(id, "mode switch")
	if state, _ := r.st.ModeInForce(id); state.Preference != (mode.Preference{Interaction: mode.Smart, Override: mode.Plan}) {
		t.Fatalf("the agent's switch to plan shows in our selector: %+v", state.Preference)
	}
	last := agent.ModeView{}
	for _, e := range r.seen() {
		if e.Name == agent.EventModeChanged {
			last = e.Data.(agent.ModeView)
		}
	}
	if last.ExecutionOverride != "plan" {
		t.Fatalf("session.mode was published: %+v", last)
	}
}

func TestCancelStopsTheAgentsPrompt(t *testing.T) {
	r := newRig(t)
	id := r.newSession()
	ack, err := r.rt.Send(agent.Input{SessionID: id, Text: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.deltas(), "thinking") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	r.rt.Cancel(id)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.rt.Wait(ctx, id)
	if turn := r.turn(id, ack.TurnID); turn.Status != store.TurnCancelled {
		t.Fatalf("cancelled: %s %q", turn.Status, turn.Error)
	}
	if got := r.said(id); got != "thinking" {
		t.Fatalf("what was said is kept: %q", got)
	}
}

func (r *rig) deltas() string {
	var b strings.Builder
	for _, e := range r.seen() {
		if e.Name == agent.EventTurnDelta {
			b.WriteString(e.Data.(agent.Delta).Text)
		}
	}
	return b.String()
}

// testLog keeps the agents' stderr for a failing test's log.
type testLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *testLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
