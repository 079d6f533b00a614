package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

func newServices(t *testing.T) *Services {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := NewServices(st, msgs, Options{Info: Info{DefaultWorkspace: t.TempDir(), DataDir: t.TempDir()}, EnvLang: "en",
		Getenv: func(string) string { return "" }})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	checkEvents(t, svc.Bus)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := svc.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return svc
}

// checkEvents fails the test on a broadcast that EventPayloads does not list with the payload
// it carries: the page's generated types of the events (build/gents) come from that table.
func checkEvents(t *testing.T, b *bus.Bus) {
	want := EventPayloads()
	b.Subscribe(func(e bus.Event) {
		w, ok := want[e.Name]
		switch {
		case !ok:
			t.Errorf("event %q is not in EventPayloads", e.Name)
		case reflect.TypeOf(w) != reflect.TypeOf(e.Data):
			t.Errorf("event %q carries %T; EventPayloads says %T", e.Name, e.Data, w)
		}
	})
}

// synced runs read after every subscriber has caught up with what was published so far.
func synced(t *testing.T, svc *Services, read func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := svc.Bus.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	read()
}

func TestBridgeExposesEveryBoundMethod(t *testing.T) {
	var names []string
	for name := range newServices(t).Methods() {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"Checkpoints.Changes", "Checkpoints.List", "Checkpoints.Preview", "Checkpoints.Restore", "Checkpoints.Review",
		"Composer.Cancel", "Composer.RunTool", "Composer.Send", "Composer.Tools", "Composer.Unqueue",
		"Decisions.Pending", "Decisions.Resolve",
		"Folders.List", "Folders.Pick", "Folders.Recent",
		"MCP.Add", "MCP.AddRule", "MCP.Approve", "MCP.Disable", "MCP.Edit", "MCP.Enable", "MCP.Import", "MCP.List", "MCP.Log", "MCP.Preview",
		"MCP.Remove", "MCP.SetToolOff",
		"Sessions.ApplyWorktree", "Sessions.ApplyWorktreeFile", "Sessions.Configure", "Sessions.Continue", "Sessions.Create", "Sessions.Delete", "Sessions.DiscardWorktreeFile", "Sessions.Fork", "Sessions.Get", "Sessions.HandOff", "Sessions.List", "Sessions.ListWorktreeTasks", "Sessions.MergeWorktree",
		"Sessions.RemoveWorktree", "Sessions.Rename", "Sessions.RestoreWorktree", "Sessions.ReviewWorktree", "Sessions.SetPermission", "Sessions.SuggestIsolation", "Sessions.Transcript", "Sessions.Worktree",
		"Settings.DeleteKey", "Settings.Get", "Settings.ProbeLocal", "Settings.RevokeRule", "Settings.Rules", "Settings.SaveKey", "Settings.SetAgentReach", "Settings.SetCheckpoints",
		"Settings.SetDecisionTimeout", "Settings.SetDefaultPermission", "Settings.SetExternalAgents", "Settings.SetExternalStartTimeout", "Settings.SetLanguage", "Settings.SetParallelTurns", "Settings.SetProvider", "Settings.SetSensitivePaths", "Settings.SetShellEnvPassthrough",
		"Settings.SetStepLimit", "Settings.SetTheme", "Settings.SetWorktreeCopy", "Settings.SetWorktreeIsolation", "Settings.SetWorktreeSetup", "Settings.StartDemo", "System.Info", "System.NotifyDecision"}
	if !slices.Equal(names, want) {
		t.Fatalf("methods %v, want %v", names, want)
	}
}

func TestCallsThroughTheBridgeBroadcastAndFailTyped(t *testing.T) {
	svc := newServices(t)
	var mu sync.Mutex
	var events []bus.Event
	svc.Bus.Subscribe(func(e bus.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	m := svc.Methods()
	// There is no default folder: a request without one is refused, saying so.
	if _, err := m["Sessions.Create"](context.Background(), json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "WORKSPACE_REQUIRED") {
		t.Fatalf("no workspace: %v", err)
	}
	ws, _ := json.Marshal(map[string]string{"workspace": svc.Info.DefaultWorkspace})
	out, err := m["Sessions.Create"](context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	created := out.(Session)
	if created.Title != "New session" || created.Workspace != svc.Info.DefaultWorkspace {
		t.Fatalf("defaults: %+v", created)
	}
	synced(t, svc, func() {
		mu.Lock()
		defer mu.Unlock()
		if len(events) != 1 || events[0].Name != "sessions.changed" || len(events[0].Data.(SessionsChanged).Sessions) != 1 {
			t.Fatalf("events: %+v", events)
		}
	})
	_, err = m["Sessions.Create"](context.Background(), json.RawMessage(`{"workspace":"/no/such/folder"}`))
	var body = svc.Describe(err)
	if body.Kind != "WORKSPACE_NOT_FOUND" || !strings.Contains(body.Message, "/no/such/folder") {
		t.Fatalf("missing workspace: %+v", body)
	}
	_, err = m["Sessions.Rename"](context.Background(), json.RawMessage(`{"id":"`+created.ID+`"`))
	if svc.Describe(err).Kind != string(errs.InvalidInput) {
		t.Fatalf("malformed JSON: %v", err)
	}
}

func TestWailsRejectionIsLocalizedJSON(t *testing.T) {
	svc := newServices(t)
	settings := &Settings{svc}
	if _, err := settings.SetLanguage(SetLanguageRequest{Language: "zh-CN"}); err != nil {
		t.Fatal(err)
	}
	_, err := settings.SetLanguage(SetLanguageRequest{Language: "fr"})
	var f Failure
	if json.Unmarshal([]byte(err.Error()), &f) != nil || f.Kind != "INVALID_VALUE" || !strings.Contains(f.Message, "可选值") {
		t.Fatalf("rejection: %q", err.Error())
	}
	again, _ := NewServices(svc.Store, svc.I18n, Options{Info: svc.Info, EnvLang: "en"})
	if again.Language() != "zh-CN" {
		t.Fatal("the language choice did not persist")
	}
}

func newScripted(path string) (provider.Provider, error) {
	return provider.New(provider.Config{Kind: provider.KindScripted, ScriptPath: path})
}

func TestBridgeErrorsKeepTheirStatus(t *testing.T) {
	svc := newServices(t)
	srv, err := Listen(svc, "127.0.0.1:0", fstest.MapFS{"index.html": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx)
	base, token, _ := strings.Cut(srv.URL(), "/?token=")
	req, _ := http.NewRequest("POST", base+"/api/Settings.SetDecisionTimeout", strings.NewReader(`{"value":"5s"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Error Failure }
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusBadRequest || body.Error.Kind != "INVALID_VALUE" || !strings.Contains(body.Error.Message, "5s") {
		t.Fatalf("status %d, body %+v", resp.StatusCode, body)
	}
}

// Chat with an external agent, asked for through the browser bridge, is the caller's mistake:
// a 4xx naming the refusal, not a server failure.
func TestBridgeRefusalsAreClientErrors(t *testing.T) {
	svc := newServices(t)
	if _, err := (&Settings{svc}).SetExternalAgents(ExternalAgentsRequest{Commands: []string{"/nonexistent/opencode acp"}}); err != nil {
		t.Fatal(err)
	}
	srv, err := Listen(svc, "127.0.0.1:0", fstest.MapFS{"index.html": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx)
	base, token, _ := strings.Cut(srv.URL(), "/?token=")
	ws := strconv.Quote(t.TempDir())
	call := func(method, body string) (int, Failure) {
		req, _ := http.NewRequest("POST", base+"/api/"+method, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ Error Failure }
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out.Error
	}
	for _, c := range []struct{ method, body, kind string }{
		{"Sessions.Create", `{"workspace":` + ws + `,"externalAgent":"/nonexistent/opencode acp","interactionMode":"chat"}`, "CHAT_WITH_EXTERNAL_AGENT"},
		{"Sessions.Create", `{"workspace":` + ws + `,"externalAgent":"/not/saved acp"}`, "EXTERNAL_AGENT_NOT_SAVED"},
		{"Sessions.Create", `{"workspace":` + ws + `,"interactionMode":"chat","executionOverride":"plan"}`, "CHAT_WITH_OVERRIDE"},
	} {
		status, f := call(c.method, c.body)
		if status < 400 || status >= 500 || f.Kind != c.kind || f.Message == "" {
			t.Errorf("%s %s: status %d, %+v", c.method, c.body, status, f)
		}
	}
	if status, f := call("Sessions.Get", `{"id":"nope"}`); status != http.StatusNotFound || f.Kind != "NOT_FOUND" {
		t.Errorf("a session that is not there: %d %+v", status, f)
	}
	ext, err := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: t.TempDir(), ExternalAgent: "/nonexistent/opencode acp"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, body, kind string }{
		{"Composer.Send", `{"sessionId":"` + ext.ID + `","text":"hi","interactionMode":"chat"}`, "CHAT_WITH_EXTERNAL_AGENT"},
		{"Sessions.Configure", `{"id":"` + ext.ID + `","interactionMode":"chat"}`, "CHAT_WITH_EXTERNAL_AGENT"},
		{"Sessions.SetPermission", `{"id":"` + ext.ID + `","permissionMode":"root"}`, "INVALID_VALUE"},
	} {
		status, f := call(c.method, c.body)
		if status < 400 || status >= 500 || f.Kind != c.kind {
			t.Errorf("%s %s: status %d, %+v", c.method, c.body, status, f)
		}
	}
}

// An external agent starts when its session is created or opened, not at the first prompt, and
// says so: here one that cannot start, so no process outlives the test.
func TestTheAgentStartsWhenItsSessionOpens(t *testing.T) {
	svc := newServices(t)
	statuses := make(chan external.AgentStatus, 8)
	svc.Bus.Subscribe(func(e bus.Event) {
		if s, ok := e.Data.(external.AgentStatus); ok {
			statuses <- s
		}
	})
	if _, err := (&Settings{svc}).SetExternalAgents(ExternalAgentsRequest{Commands: []string{"/nonexistent/opencode acp"}}); err != nil {
		t.Fatal(err)
	}
	sessions := &Sessions{svc}
	s, err := sessions.Create(CreateSessionRequest{ExternalAgent: "/nonexistent/opencode acp", Workspace: svc.Info.DefaultWorkspace})
	if err != nil {
		t.Fatal(err)
	}
	next := func() external.AgentStatus {
		select {
		case st := <-statuses:
			return st
		case <-time.After(10 * time.Second):
			t.Fatal("no agent.status")
		}
		return external.AgentStatus{}
	}
	if st := next(); st.State != external.StatusStarting || st.Name != "opencode" || st.SessionID != s.ID {
		t.Fatalf("starting: %+v", st)
	}
	if st := next(); st.State != external.StatusFailed || !strings.Contains(st.Error, "EXTERNAL_AGENT_FAILED") {
		t.Fatalf("failed, saying why: %+v", st)
	}
	if _, err := sessions.Transcript(TranscriptRequest{ID: s.ID}); err != nil {
		t.Fatal(err)
	}
	if st := next(); st.State != external.StatusStarting {
		t.Fatalf("opening the session starts it again: %+v", st)
	}
	next()
	if v, _ := (&Settings{svc}).Get(); v.ExternalStartTimeout != "2m0s" {
		t.Fatalf("the start-up limit in Settings: %q", v.ExternalStartTimeout)
	}
}

// A session beyond the loaded pages of the list is read on its own, as a link to it needs; an
// unknown one fails typed and localized.
func TestASessionIsReadOnItsOwn(t *testing.T) {
	svc := newServices(t)
	sessions := &Sessions{svc}
	first, err := sessions.Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := sessions.Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace}); err != nil {
			t.Fatal(err)
		}
	}
	page, _ := sessions.List(ListSessionsRequest{Limit: 2})
	if slices.ContainsFunc(page.Sessions, func(s Session) bool { return s.ID == first.ID }) {
		t.Fatal("the oldest session is on the first page; the test proves nothing")
	}
	got, err := sessions.Get(SessionRef{ID: first.ID})
	if err != nil || got.ID != first.ID || got.Workspace != first.Workspace || got.PermissionMode != first.PermissionMode {
		t.Fatalf("%+v %v, want %+v", got, err, first)
	}
	_, err = sessions.Get(SessionRef{ID: "no-such-session"})
	var f *Failure
	if !errors.As(err, &f) || !strings.HasSuffix(f.Kind, "NOT_FOUND") || f.Message == "" || strings.Contains(f.Message, "NOT_FOUND") {
		t.Fatalf("an unknown session: %#v", err)
	}
}
