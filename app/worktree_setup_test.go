package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/worktree/worktreetest"
)

// The settings refuse what cannot be used, typed and in the person's language.
func TestWorktreePrepSettingsRefuseBadInputTyped(t *testing.T) {
	svc := newServices(t)
	f := &Settings{svc}
	_, err := f.SetWorktreeCopy(GlobsRequest{Globs: []string{".env", "/etc/passwd"}})
	var failure *Failure
	if !errors.As(err, &failure) || failure.Kind != "INVALID_VALUE" || !strings.Contains(failure.Message, "/etc/passwd") {
		t.Fatalf("an absolute glob: %v", err)
	}
	if _, err := f.SetWorktreeSetup(ValueRequest{Value: "npm\x00ci"}); !errors.As(err, &failure) || failure.Kind != "INVALID_VALUE" {
		t.Fatalf("a command with a NUL: %v", err)
	}
	view, err := f.SetWorktreeCopy(GlobsRequest{Globs: []string{" .env ", "config/local.yaml", ".env"}})
	if err != nil || strings.Join(view.WorktreeCopy, ",") != ".env,config/local.yaml" {
		t.Fatalf("saved %v %v", view.WorktreeCopy, err)
	}
	if view, err := f.SetWorktreeSetup(ValueRequest{Value: "  npm ci "}); err != nil || view.WorktreeSetup != "npm ci" {
		t.Fatalf("saved %q %v", view.WorktreeSetup, err)
	}
}

// An isolated task created from the window runs the person's set-up and, ticked, the
// repository's, in the background: each result is broadcast and in the transcript, and a
// failing one leaves the session to work in.
func TestANewIsolatedTaskIsSetUpInTheBackground(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatal("this machine has namespaces: the set-up must be tested in its sandbox")
	}
	svc := newServices(t)
	done, started := make(chan WorktreeSetupView, 4), make(chan WorktreeSetupView, 4)
	svc.Bus.Subscribe(func(e bus.Event) {
		switch e.Name {
		case EventWorktreeSetup:
			done <- e.Data.(WorktreeSetupView)
		case EventWorktreeSetupStarted:
			started <- e.Data.(WorktreeSetupView)
		}
	})
	repo := worktreetest.Repo(t, map[string]string{"a.go": "package a\n", ".agentdesk/worktree.json": `{"setup": "echo from the repository; exit 4"}`})
	if _, err := (&Settings{svc}).SetWorktreeSetup(ValueRequest{Value: "echo mine > mine.txt"}); err != nil {
		t.Fatal(err)
	}
	f := &Sessions{svc}
	created, err := f.Create(CreateSessionRequest{Workspace: repo, Title: "Set up", Isolated: true, RepoSetup: "echo from the repository; exit 4"})
	if err != nil {
		t.Fatal(err)
	}
	var got []WorktreeSetupView
	for len(got) < 2 {
		select {
		case v := <-done:
			got = append(got, v)
		case <-time.After(30 * time.Second):
			t.Fatalf("set-ups announced: %+v", got)
		}
	}
	if got[0].Setup.Source != "settings" || got[0].Setup.Failed || got[1].Setup.Source != "repository" || got[1].Setup.ExitCode != 4 ||
		!strings.Contains(got[1].Setup.Output, "from the repository") {
		t.Fatalf("announced %+v", got)
	}
	if len(started) != 2 || (<-started).Setup.Command != "echo mine > mine.txt" {
		t.Fatal("each set-up is announced as it starts")
	}
	if b, _ := os.ReadFile(filepath.Join(created.Workspace, "mine.txt")); string(b) != "mine\n" {
		t.Fatal("the person's set-up did not run in the worktree")
	}
	tr, err := f.Transcript(TranscriptRequest{ID: created.ID})
	if err != nil {
		t.Fatal(err)
	}
	var setups int
	for _, it := range tr.Items {
		if it.Type == "worktreeSetup" && it.WorktreeSetup != nil {
			setups++
		}
	}
	if setups != 2 {
		t.Fatalf("the transcript shows %d set-ups: %+v", setups, tr.Items)
	}
	if _, err := os.Stat(created.Workspace); err != nil {
		t.Fatal("a failing set-up removed the worktree")
	}
}
