package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
)

// The offline demo, driven through the same facades the window and the browser call: a
// question, a plan review and two approvals arrive one at a time, and the transcript shows it.
func TestTheOfflineDemoRunsThroughTheFacades(t *testing.T) {
	svc := newServices(t)
	settings := &Settings{svc}
	if view, _ := settings.Get(); view.ProviderReady {
		t.Fatal("a fresh data folder has no provider: onboarding must show")
	}
	var mu sync.Mutex
	var kinds []string
	answers := map[decision.Kind]ResolveRequest{
		decision.KindQuestion:   {Selected: []string{"Hello, world"}},
		decision.KindPlanReview: {Choice: "approve"},
		decision.KindApproval:   {Choice: "allow_once"},
	}
	svc.Bus.Subscribe(func(e bus.Event) {
		if e.Name != decision.EventAsked {
			return
		}
		d := e.Data.(decision.Decision)
		mu.Lock()
		kinds = append(kinds, string(d.Kind))
		mu.Unlock()
		req := answers[d.Kind]
		req.ID = d.ID
		go (&Decisions{svc}).Resolve(req)
	})
	sess, err := settings.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	if view, _ := settings.Get(); !view.ProviderReady || view.Provider.Kind != ProviderDemo {
		t.Fatalf("after the demo starts: %+v", view.Provider)
	}
	if sess.ExecutionOverride != "plan" || sess.PermissionMode != "ask" {
		t.Fatalf("demo session: %+v", sess)
	}
	if _, err := (&Composer{svc}).Send(SendRequest{SessionID: sess.ID, Text: "Show me around"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	svc.Runtime.Wait(ctx, sess.ID)

	mu.Lock()
	got := strings.Join(kinds, ",")
	mu.Unlock()
	if got != "question,plan_review,approval,approval" {
		t.Fatalf("decisions in order: %s", got)
	}
	script, err := os.ReadFile(filepath.Join(sess.Workspace, "hello.sh"))
	if err != nil || !strings.Contains(string(script), "Hello, world") {
		t.Fatalf("the demo's approved write: %q %v", script, err)
	}
	tr, err := (&Sessions{svc}).Transcript(SessionRef{ID: sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 1 || tr.Turns[0].Status != "done" || tr.Turns[0].ExecutionMode != "plan" || tr.Running != "" {
		t.Fatalf("turns: %+v running %q", tr.Turns, tr.Running)
	}
	var tools, modes int
	for _, it := range tr.Items {
		switch it.Type {
		case "tool":
			tools++
			if it.Name == "bash" && (it.Verdict != "ask" || it.Approved != "allow_once" || !strings.Contains(it.Output, "Hello")) {
				t.Fatalf("bash card: %+v", it)
			}
		case "mode":
			modes++
		}
	}
	if tools != 5 || modes != 2 {
		t.Fatalf("%d tool cards and %d mode changes in %+v", tools, modes, tr.Items)
	}
}

func TestSettingsValidateAndPublish(t *testing.T) {
	svc := newServices(t)
	settings := &Settings{svc}
	var changed int
	svc.Bus.Subscribe(func(e bus.Event) {
		if e.Name == "settings.changed" {
			changed++
		}
	})
	for name, call := range map[string]func() error{
		"timeout":  func() error { _, err := settings.SetDecisionTimeout(ValueRequest{Value: "2s"}); return err },
		"theme":    func() error { _, err := settings.SetTheme(ThemeRequest{Theme: "neon"}); return err },
		"provider": func() error { _, err := settings.SetProvider(SetProviderRequest{Kind: "gemini"}); return err },
		"permission": func() error {
			_, err := settings.SetDefaultPermission(SetDefaultPermissionRequest{PermissionMode: "bypass"})
			return err
		},
		"key vendor": func() error { _, err := settings.SaveKey(KeyRequest{Provider: "acme", Key: "k"}); return err },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), string(errs.InvalidValue)) {
			t.Errorf("%s: want INVALID_VALUE, got %v", name, err)
		}
	}
	if changed != 0 {
		t.Fatalf("a refused write published %d changes", changed)
	}
	if view, _ := settings.Get(); view.DecisionTimeout != "never" {
		t.Fatalf("by default a decision waits for the person: %q", view.DecisionTimeout)
	}
	view, err := settings.SetDecisionTimeout(ValueRequest{Value: "90s"})
	if err != nil || view.DecisionTimeout != "1m30s" {
		t.Fatalf("timeout: %+v %v", view, err)
	}
	if view, err = settings.SetDecisionTimeout(ValueRequest{Value: "never"}); err != nil || view.DecisionTimeout != "never" {
		t.Fatalf("never: %+v %v", view, err)
	}
	view, _ = settings.SetProvider(SetProviderRequest{Kind: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3"})
	if !view.ProviderReady || changed != 3 {
		t.Fatalf("a local OpenAI-compatible server needs no key: %+v (%d changes)", view, changed)
	}
}

func TestConfigureIsQueuedWhileATurnRuns(t *testing.T) {
	svc := newServices(t)
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"responses":[{"text":"slow","delay_ms":300},{"text":"next"}]}`), 0o600)
	svc.override, _ = newScripted(script)
	sess, _ := (&Sessions{svc}).Create(CreateSessionRequest{})
	(&Composer{svc}).Send(SendRequest{SessionID: sess.ID, Text: "work"})
	chat := "chat"
	res, err := (&Sessions{svc}).Configure(ConfigureSessionRequest{ID: sess.ID, InteractionMode: &chat})
	if err != nil || !res.Queued || res.Session.InteractionMode != "smart" || !res.Session.Running {
		t.Fatalf("configure during a turn: %+v %v", res, err)
	}
	tr, _ := (&Sessions{svc}).Transcript(SessionRef{ID: sess.ID})
	if len(tr.Queue) != 1 || tr.Running == "" {
		t.Fatalf("transcript while running: %+v", tr)
	}
	svc.Runtime.Wait(context.Background(), sess.ID)
	after, _ := (&Sessions{svc}).List()
	if after[0].InteractionMode != "chat" {
		t.Fatalf("after the boundary: %+v", after[0])
	}
}
