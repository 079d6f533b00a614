package session

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/store"
	"agentdesk/backend/worktree/worktreetest"
)

func openStore(t *testing.T) *Service {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Service{Store: st}
}

// worktreeLog is what the session's log says of its worktree's preparation.
func worktreeLog(t *testing.T, svc *Service, id string) (copied []eventlog.WorktreeCopied, setups []eventlog.WorktreeSetup) {
	t.Helper()
	log, err := svc.Store.Log(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range log {
		switch p := r.Payload.(type) {
		case eventlog.WorktreeCopied:
			copied = append(copied, p)
		case eventlog.WorktreeSetup:
			setups = append(setups, p)
		}
	}
	return copied, setups
}

// A new isolated task gets the files the person's worktree-copy setting names, and its log says
// what was copied and what was skipped.
func TestANewTaskWorktreeGetsTheNamedFilesAndTheLogSaysSo(t *testing.T) {
	svc := openStore(t)
	repo := worktreetest.Repo(t, map[string]string{"a.go": "package a\n", ".gitignore": ".env\n"})
	os.WriteFile(filepath.Join(repo, ".env"), []byte("TOKEN=1\n"), 0o600)
	os.WriteFile(filepath.Join(repo, "local.yaml"), []byte("port: 1\n"), 0o644)
	if err := svc.Store.SetWorktreeCopy([]string{".env", "*.yaml"}); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Create(CreateInput{Title: "Copy", Workspace: repo, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(v.Workspace, ".env")); err != nil || string(b) != "TOKEN=1\n" {
		t.Fatalf(".env in the worktree: %q %v", b, err)
	}
	copied, _ := worktreeLog(t, svc, v.ID)
	if len(copied) != 1 || !reflect.DeepEqual(copied[0].Files, []string{".env", "local.yaml"}) {
		t.Fatalf("logged %+v", copied)
	}
	if err := svc.Store.SetWorktreeCopy([]string{"../outside"}); err == nil {
		t.Fatal("a glob reaching out of the repository was accepted")
	}
}

// The set-up runs in the new worktree inside the sandbox: what it writes there is written, a
// write into the person's folder or $HOME never reaches them (the kernel shows the command its
// own view, whose writes outside the worktree go nowhere), and each result is recorded
// in the session's log. A failing set-up leaves the worktree and the session as they are.
func TestTheSetUpRunsSandboxedInTheWorktreeAndIsRecorded(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatal("this machine has namespaces: the set-up must be tested in its sandbox")
	}
	svc := openStore(t)
	repo := worktreetest.Repo(t, map[string]string{"a.go": "package a\n"})
	home, _ := os.UserHomeDir()
	escape := filepath.Join(home, "agentdesk-setup-escape-"+filepath.Base(t.TempDir()))
	t.Cleanup(func() { os.Remove(escape) })
	config := filepath.Join(repo, ".git", "config") // shown to the command, read-only
	cmd := "echo built > built.txt && echo done; touch " + filepath.Join(repo, "leak.txt") + "; touch " + escape +
		"; echo '[core] evil' >> " + config + " || echo refused; exit 3"
	if err := svc.Store.SetSetting(store.SettingWorktreeSetup, cmd); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Create(CreateInput{Title: "Set up", Workspace: repo, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := svc.SetupWorktree(context.Background(), v.ID, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(v.Workspace, "built.txt")); string(b) != "built\n" {
		t.Fatalf("the set-up did not write in the worktree: %+v", runs)
	}
	for _, p := range []string{filepath.Join(repo, "leak.txt"), escape} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("the set-up wrote %s outside its worktree", p)
		}
	}
	if b, _ := os.ReadFile(config); strings.Contains(string(b), "evil") {
		t.Fatal("the set-up changed the repository's config")
	}
	_, logged := worktreeLog(t, svc, v.ID)
	if len(logged) != 1 || logged[0].Command != cmd || logged[0].Source != eventlog.SetupFromSettings ||
		logged[0].ExitCode != 3 || !strings.Contains(logged[0].Output, "done") || !strings.Contains(logged[0].Output, "refused") || !logged[0].Failed() {
		t.Fatalf("logged %+v", logged)
	}
	if _, err := os.Stat(v.Workspace); err != nil {
		t.Fatal("a failing set-up removed the worktree")
	}
}

// The repository's proposal never runs by itself: only when the person ticked it for the task,
// and only the text they were shown.
func TestTheRepositorysSetUpRunsOnlyWhenTicked(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Fatal("this machine has namespaces: the set-up must be tested in its sandbox")
	}
	svc := openStore(t)
	repo := worktreetest.Repo(t, map[string]string{"a.go": "package a\n", ".agentdesk/worktree.json": `{"setup": "touch proposed.txt"}`})
	if got, _ := svc.SuggestIsolation(context.Background(), repo); got.RepoSetup != "touch proposed.txt" {
		t.Fatalf("the composer is not shown the proposal: %+v", got)
	}
	create := func(title string) View {
		v, err := svc.Create(CreateInput{Title: title, Workspace: repo, Isolated: true})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ran := func(v View) bool {
		_, err := os.Stat(filepath.Join(v.Workspace, "proposed.txt"))
		return err == nil
	}
	unticked := create("Not ticked")
	if runs, err := svc.SetupWorktree(context.Background(), unticked.ID, "", nil); err != nil || len(runs) != 0 || ran(unticked) {
		t.Fatalf("not ticked, yet: %+v %v", runs, err)
	}
	ticked := create("Ticked")
	if runs, err := svc.SetupWorktree(context.Background(), ticked.ID, "touch proposed.txt", nil); err != nil || len(runs) != 1 ||
		runs[0].Source != eventlog.SetupFromRepository || runs[0].Failed() || !ran(ticked) {
		t.Fatalf("ticked: %+v %v", runs, err)
	}
	other := create("Other text")
	runs, err := svc.SetupWorktree(context.Background(), other.ID, "touch something-else", nil)
	if err != nil || len(runs) != 1 || runs[0].Error != string(SetupChanged) || ran(other) {
		t.Fatalf("a text the repository does not propose: %+v %v", runs, err)
	}
}
