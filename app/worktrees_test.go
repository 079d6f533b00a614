package app

import (
	"reflect"
	"testing"

	"agentdesk/backend/agent"
	"agentdesk/backend/store"
)

// The tasks in worktrees come grouped by repository, each with the live state the session list
// shows; a removed worktree and a session in its folder are left out.
func TestWorktreeTasksAreGroupedByRepositoryWithTheirLiveState(t *testing.T) {
	svc := newServices(t)
	f := &Sessions{svc}
	if got, err := f.ListWorktreeTasks(); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("no tasks: %#v %v", got, err)
	}
	record := func(title, repo string, removed bool) string {
		t.Helper()
		row, err := svc.Store.CreateSession(store.NewSession{Title: title, Workspace: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		w := store.TaskWorktree{SessionID: row.ID, Repo: repo, Common: repo + "/.git", Path: "/copies/" + row.ID,
			GitDir: repo + "/.git/worktrees/" + row.ID, Branch: "agentdesk/" + title, Base: "abc1234", Removed: removed}
		if err := svc.Store.SetTaskWorktree(w); err != nil {
			t.Fatal(err)
		}
		return row.ID
	}
	a := record("a", "/repos/one", false)
	b := record("b", "/repos/two", false)
	record("gone", "/repos/two", true)
	if _, err := svc.Store.CreateSession(store.NewSession{Title: "folder", Workspace: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Store.SetUnapplied(b, 3); err != nil {
		t.Fatal(err)
	}
	svc.publish(agent.EventTurnStarted, agent.TurnStarted{SessionID: a, TurnID: "t1"})

	got, err := f.ListWorktreeTasks()
	if err != nil {
		t.Fatal(err)
	}
	var repos [][]string
	for _, r := range got {
		var tasks []string
		for _, task := range r.Tasks {
			tasks = append(tasks, task.Title)
		}
		repos = append(repos, append([]string{r.Repo}, tasks...))
	}
	if want := [][]string{{"/repos/one", "a"}, {"/repos/two", "b"}}; !reflect.DeepEqual(repos, want) {
		t.Fatalf("repos %v, want %v", repos, want)
	}
	ta, tb := got[0].Tasks[0], got[1].Tasks[0]
	if !ta.Running || ta.StateSeq == 0 || ta.Branch != "agentdesk/a" || ta.Unapplied != 0 {
		t.Errorf("the running task %+v", ta)
	}
	if tb.Running || tb.Unapplied != 3 || tb.ID != b {
		t.Errorf("the idle task %+v", tb)
	}
}
