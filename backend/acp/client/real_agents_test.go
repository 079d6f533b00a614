package client

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// What opencode and acpx showed, each against the fixture agent, which behaves the
// way those agents were seen to.

// sessionOn creates a session on the fixture started with flags, saving that command line.
func (r *rig) sessionOn(flags, permission, override string) (string, string) {
	r.t.Helper()
	cmd := r.cmd
	if flags != "" {
		cmd += " " + flags
	}
	saved, _ := r.st.ExternalAgents()
	if err := r.st.SetExternalAgents(append(saved, cmd)); err != nil {
		r.t.Fatal(err)
	}
	in := session.CreateInput{Title: "external", Workspace: r.t.TempDir(), Permission: &permission}
	if override != "" {
		in.Mode.ExecutionOverride = &override
	}
	v, err := CreateSession(r.svc, in, cmd)
	if err != nil {
		r.t.Fatal(err)
	}
	return v.ID, v.Workspace
}

// approvals answers every approval with res and collects the payloads.
func (r *rig) approvals(res decision.Resolution) *[]decision.ApprovalPayload {
	var mu sync.Mutex
	out := &[]decision.ApprovalPayload{}
	r.onDecision(func(d decision.Decision) *decision.Resolution {
		var p decision.ApprovalPayload
		json.Unmarshal(d.Payload, &p)
		mu.Lock()
		*out = append(*out, p)
		mu.Unlock()
		return &res
	})
	return out
}

func (r *rig) done(id, text string) {
	r.t.Helper()
	if turn := r.send(id, text); turn.Status != store.TurnDone {
		r.t.Fatalf("%q: %s %s", text, turn.Status, turn.Error)
	}
}

func TestModesPublishedAsAConfigOptionFollowTheTurn(t *testing.T) {
	r := newRig(t)
	id, _ := r.sessionOn("", "ask", "plan")
	r.done(id, "hello")
	if !strings.HasSuffix(r.said(id), "in mode plan.") {
		t.Fatalf("Smart · Plan sets the agent's plan value: %q", r.said(id))
	}
	execute := "execute"
	r.rt.Configure(id, mode.FollowUpInput{ExecutionOverride: &execute})
	r.done(id, "hello")
	if !strings.HasSuffix(r.said(id), "in mode build.") {
		t.Fatalf("execute sets its working value back: %q", r.said(id))
	}
	analyze := "analyze"
	r.rt.Configure(id, mode.FollowUpInput{ExecutionOverride: &analyze})
	r.done(id, "hello")
	if !strings.HasSuffix(r.said(id), "in mode plan.") {
		t.Fatalf("a read-only execution mode uses the plan value: %q", r.said(id))
	}
	if state, _ := r.st.ModeInForce(id); state.Preference.Override != mode.Analyze {
		t.Fatalf("the echo of our own switch is not taken for the agent's: %+v", state.Preference)
	}
}

func TestPlanIsRefusedWhereTheAgentHasNoPlanMode(t *testing.T) {
	r := newRig(t)
	id, _ := r.sessionOn("--modes=noplan", "ask", "plan")
	turn := r.send(id, "hello")
	if turn.Status != store.TurnFailed || !strings.HasPrefix(turn.Error, string(external.NoPlanMode)) {
		t.Fatalf("a clear error, nothing sent: %s %q (said %q)", turn.Status, turn.Error, r.said(id))
	}
	if r.said(id) != "" {
		t.Fatalf("the agent was not prompted: %q", r.said(id))
	}
	msgs := r.msgs(t)
	if en := msgs.Error("en", errs.New(external.NoPlanMode, "Agent", "x")); !strings.Contains(en, "plan") {
		t.Fatalf("message: %q", en)
	}
	none := ""
	r.rt.Configure(id, mode.FollowUpInput{ExecutionOverride: &none})
	r.done(id, "hello")
	plan := "plan"
	if _, err := r.rt.Configure(id, mode.FollowUpInput{ExecutionOverride: &plan}); errs.KindOf(err) != external.NoPlanMode {
		t.Fatalf("choosing Plan for it is refused: %v", err)
	}
}

func TestTheRejectReasonReachesTheAgent(t *testing.T) {
	r := newRig(t)
	id, _ := r.sessionOn("", "ask", "")
	asked := r.approvals(decision.Approval(decision.Reject, "the suite is flaky, run it later"))
	r.done(id, "permission")
	if len(*asked) != 1 || (*asked)[0].Command != "npm test" {
		t.Fatalf("asked from the request's own tool call: %+v", *asked)
	}
	if got := r.said(id); !strings.Contains(got, "permission outcome: no; reason: REJECTED_BY_USER: the suite is flaky, run it later") {
		t.Fatalf("the reason travels in the response's _meta: %q", got)
	}
	r.done(id, "blocks")
	if got := r.said(id); !strings.Contains(got, `declined: REJECTED_BY_USER: the suite is flaky, run it later`) {
		t.Fatalf("and opens the agent's next prompt: %q", got)
	}
	r.done(id, "blocks")
	if got := r.said(id); !strings.HasSuffix(got, "blocks: 1; before: []") {
		t.Fatalf("once: %q", got)
	}
}

func TestPermissionModesApplyToTheAgent(t *testing.T) {
	r := newRig(t)
	id, ws := r.sessionOn("", "full", "")
	asked := r.approvals(decision.Approval(decision.Reject, ""))
	r.done(id, "write")
	if len(*asked) != 0 {
		t.Fatalf("full access asks nothing for an edit inside the workspace: %+v", *asked)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "notes.txt")); err != nil || string(b) != "line one\nline two\n" {
		t.Fatalf("written through fs/write_text_file: %q %v", b, err)
	}
	if got := r.said(id); !strings.Contains(got, "write yes: ok") {
		t.Fatalf("answered allow_once: %q", got)
	}
	r.done(id, "fetch")
	if len(*asked) != 1 || (*asked)[0].Code != "NETWORK_FETCH" {
		t.Fatalf("a fetch still asks: %+v", *asked)
	}
	r.done(id, "think")
	if len(*asked) != 2 {
		t.Fatalf("an unknown kind fails closed: %+v", *asked)
	}

	id2, ws2 := r.sessionOn("", "ask", "")
	asked2 := r.approvals(decision.Approval(decision.AllowOnce, ""))
	r.done(id2, "write")
	if len(*asked2) != 1 || !strings.Contains((*asked2)[0].Diff, "+line two") || (*asked2)[0].Path != filepath.Join(realDir(t, ws2), "notes.txt") {
		t.Fatalf("ask shows the diff of the request, once: %+v", *asked2)
	}
	if b, _ := os.ReadFile(filepath.Join(ws2, "notes.txt")); string(b) != "line one\nline two\n" {
		t.Fatalf("the approved change is written without a second question: %q", b)
	}
	r.done(id2, "fswrite")
	if len(*asked2) != 2 || (*asked2)[1].Tool != "write "+filepath.Join(ws2, "notes.txt") {
		t.Fatalf("a write the agent did not ask for is asked: %+v", *asked2)
	}
	os.WriteFile(filepath.Join(ws2, "README.md"), []byte("title\nsecond line\nthird\n"), 0o644)
	r.done(id2, "readfile")
	if got := r.said(id2); !strings.Contains(got, `readfile: "second line\n"`) {
		t.Fatalf("a read inside the workspace runs in ask: %q", got)
	}
}

func TestTheAgentsSessionIsLoadedAfterACrash(t *testing.T) {
	state := t.TempDir()
	t.Setenv("FIXTURE_STATE", state)
	r := newRig(t)
	r.keepStateIn(state) // the agent keeps its sessions only where its reach lets it write
	id, _ := r.sessionOn("", "ask", "")
	r.done(id, "remember the blue door")
	stored, _ := r.st.AgentSession(id, r.cmd)
	if stored == "" {
		t.Fatal("the agent's session id is stored")
	}
	r.send(id, "crash")
	r.done(id, "recall")
	if got := r.said(id); !strings.Contains(got, "memory: the blue door") {
		t.Fatalf("the restarted agent loaded its session: %q", got)
	}
	if again, _ := r.st.AgentSession(id, r.cmd); again != stored {
		t.Fatalf("the same session: %q, was %q", again, stored)
	}

	lost := t.TempDir()
	t.Setenv("FIXTURE_STATE", lost) // the agent lost its sessions
	r.keepStateIn(lost)
	r.send(id, "crash")
	r.done(id, "blocks")
	got := r.said(id)
	if !strings.Contains(got, "could not be restored") || !strings.Contains(got, "User: remember the blue door") {
		t.Fatalf("a new session starts with the conversation so far: %q", got)
	}
	if fresh, _ := r.st.AgentSession(id, r.cmd); fresh == stored || fresh == "" {
		t.Fatalf("the new session's id is stored: %q", fresh)
	}
}

func TestTheStartUpLimit(t *testing.T) {
	r := newRig(t)
	p := NewPool(nil)
	defer p.Close()
	_, err := p.Open(context.Background(), external.Session{SessionID: "s", Command: r.cmd + " --slow-start=3000",
		Workspace: t.TempDir(), StartTimeout: 300 * time.Millisecond})
	if errs.KindOf(err) != ExternalAgentStartTimeout || !strings.Contains(r.msgs(t).Error("en", err), "300ms") {
		t.Fatalf("a slow agent is stopped at the limit, which the error names: %v", err)
	}
	info, err := p.Open(context.Background(), external.Session{SessionID: "s", Command: r.cmd, Workspace: t.TempDir()})
	if err != nil || !info.PlanMode || info.AgentSession == "" {
		t.Fatalf("a prompt one starts: %+v %v", info, err)
	}
	if got, ok := p.Info("s"); !ok || !reflect.DeepEqual(got, info) {
		t.Fatalf("and is running: %+v", got)
	}
}

func realDir(t *testing.T, dir string) string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func TestEveryExternalMessageIsLocalized(t *testing.T) {
	keys := []string{"cli.run.verdict.external", "cli.run.starting", "settings.agents.startTimeout.label",
		"composer.approval.agentLead", "composer.approval.externalReasonPlaceholder"}
	for _, k := range []errs.Kind{external.NoPlanMode, external.CallDeclined, external.ChatRefused,
		external.AgentFailed, external.AgentProtocol, external.AgentUnavailable, ExternalAgentNotSaved,
		ExternalAgentStartTimeout, NotInPrompt} {
		keys = append(keys, "error."+string(k))
	}
	for _, s := range []string{external.StatusStarting, external.StatusReady, external.StatusFailed, "loaded"} {
		keys = append(keys, "agent.status."+s)
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
