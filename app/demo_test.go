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
	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

// answerDemo answers the demo's decisions as a person would: the second greeting, one round of
// Keep planning with a note, then Approve, and Allow once for the write and the command.
func answerDemo(t *testing.T, svc *Services) func() []string {
	var mu sync.Mutex
	var kinds []string
	plans := 0
	svc.Bus.Subscribe(func(e bus.Event) {
		if e.Name != decision.EventAsked {
			return
		}
		d := e.Data.(decision.Decision)
		mu.Lock()
		kinds = append(kinds, string(d.Kind))
		req := ResolveRequest{ID: d.ID, Choice: "allow_once"}
		switch d.Kind {
		case decision.KindQuestion:
			req = ResolveRequest{ID: d.ID, Selected: []string{"Hi there"}}
		case decision.KindPlanReview:
			if plans++; plans == 1 {
				req = ResolveRequest{ID: d.ID, Choice: "keep_planning", Feedback: "say it twice"}
			} else {
				req = ResolveRequest{ID: d.ID, Choice: "approve"}
			}
		}
		mu.Unlock()
		go (&Decisions{svc}).Resolve(req)
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), kinds...)
	}
}

func runDemoTurn(t *testing.T, svc *Services, id, text string) {
	t.Helper()
	if _, err := (&Composer{svc}).Send(SendRequest{SessionID: id, Text: text}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	svc.Runtime.Wait(ctx, id)
}

// Issue 12: the demo is one session in its own scratch folder that follows the person's
// answers — Keep planning revises the plan, the chosen greeting is the one written — and it
// never becomes the provider of any other session.
func TestTheDemoFollowsThePersonInItsOwnSession(t *testing.T) {
	svc := newServices(t)
	settings := &Settings{svc}
	kinds := answerDemo(t, svc)
	sess, err := settings.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	if !sess.Demo || sess.ExecutionOverride != "plan" || sess.PermissionMode != "ask" ||
		!strings.HasPrefix(filepath.Base(sess.Workspace), demoDirPrefix) {
		t.Fatalf("demo session: %+v", sess)
	}
	if view, _ := settings.Get(); view.ProviderReady || view.Provider.Kind != "" {
		t.Fatalf("the demo must not become the provider: %+v", view.Provider)
	}
	runDemoTurn(t, svc, sess.ID, "Show me around")
	if got := strings.Join(kinds(), ","); got != "question,plan_review,plan_review,approval,approval" {
		t.Fatalf("decisions in order: %s", got)
	}
	script, err := os.ReadFile(filepath.Join(sess.Workspace, "hello.sh"))
	if err != nil || !strings.Contains(string(script), "Hi there") || strings.Contains(string(script), "Hello, world") {
		t.Fatalf("the chosen greeting is the one written: %q %v", script, err)
	}
	tr, _ := (&Sessions{svc}).Transcript(TranscriptRequest{ID: sess.ID})
	var plans []string
	var printed string
	for _, it := range tr.Items {
		if it.Type == "tool" && it.Name == "exit_plan_mode" {
			plans = append(plans, string(it.Input))
		}
		if it.Type == "tool" && it.Name == "bash" {
			printed = it.Output
		}
	}
	if len(plans) != 2 || !strings.Contains(plans[1], "say it twice") || !strings.Contains(plans[0], "Hi there") {
		t.Fatalf("the revised plan carries the note: %q", plans)
	}
	if !strings.Contains(printed, "Hi there") {
		t.Fatalf("the script's output: %q", printed)
	}
	// The tour is over; another message gets an answer, not a failed turn.
	runDemoTurn(t, svc, sess.ID, "what next?")
	tr, _ = (&Sessions{svc}).Transcript(TranscriptRequest{ID: sess.ID})
	if last := tr.Turns[len(tr.Turns)-1]; last.Status != "done" {
		t.Fatalf("after the tour: %+v", last)
	}

	// Any other session, in any folder, has no provider: it is refused before a turn starts.
	other, _ := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace})
	if _, err := (&Composer{svc}).Send(SendRequest{SessionID: other.ID, Text: "hi"}); err == nil || !strings.Contains(err.Error(), string(NoProvider)) {
		t.Fatalf("another session: %v", err)
	}
	if tr, _ := (&Sessions{svc}).Transcript(TranscriptRequest{ID: other.ID}); len(tr.Turns) != 0 {
		t.Fatalf("nothing may start without a provider: %+v", tr.Turns)
	}

	if err := (&Sessions{svc}).Delete(SessionRef{ID: sess.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sess.Workspace); !os.IsNotExist(err) {
		t.Fatalf("deleting the demo session removes its folder: %v", err)
	}
}

// At the next start the demo's folder is removed; its session stays readable and says it ended.
func TestADemoFolderIsRemovedAtTheNextStart(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msgs, _ := i18n.Load()
	open := func() *Services {
		svc, err := NewServices(st, msgs, Options{Info: Info{DefaultWorkspace: t.TempDir(), DataDir: dir}, EnvLang: "en",
			Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	first := open()
	sess, err := (&Settings{first}).StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sess.Workspace); err != nil {
		t.Fatal(err)
	}
	second := open()
	if _, err := os.Stat(sess.Workspace); !os.IsNotExist(err) {
		t.Fatalf("the folder outlived the restart: %v", err)
	}
	list, _ := (&Sessions{second}).list(t)
	if len(list) != 1 || !list[0].Demo {
		t.Fatalf("the demo session stays: %+v", list)
	}
	_, err = (&Composer{second}).Send(SendRequest{SessionID: sess.ID, Text: "again"})
	if err == nil || !strings.Contains(err.Error(), string(DemoEnded)) {
		t.Fatalf("an ended demo says so: %v", err)
	}
}

func TestAppErrorKindsHaveMessages(t *testing.T) {
	for _, m := range i18n.Missing("error."+string(NoProvider), "error."+string(DemoEnded), "error."+string(NotificationsUnavailable), "error."+string(PickerUnavailable)) {
		t.Errorf("no message for %s", m)
	}
}
