package store

import (
	"testing"
	"time"
)

func recordWorktree(t *testing.T, s *Store, sessionID, repo, branch string) {
	t.Helper()
	w := TaskWorktree{SessionID: sessionID, Repo: repo, Common: repo + "/.git", Path: "/data-worktrees/" + sessionID,
		GitDir: repo + "/.git/worktrees/" + sessionID, Branch: branch, Base: "abc1234"}
	if err := s.SetTaskWorktree(w); err != nil {
		t.Fatal(err)
	}
}

// A worktree recorded before the count existed moves with a count of none; the count set
// afterwards is kept with its record, and setting the same count again is no change.
func TestUnappliedCountMigratesAndIsSet(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:14], nil)
	if err != nil {
		t.Fatal(err)
	}
	a := newSession(t, old, "a")
	if err := old.db.Exec(`INSERT INTO task_worktrees (session_id, repo, common, path, git_dir, branch, base, created_at)
		VALUES (?, '/repo', '/repo/.git', '/w', '/repo/.git/worktrees/w', 'agentdesk/a', 'abc1234', ?)`, a.ID, time.Now().UTC()).Error; err != nil {
		t.Fatal(err)
	}
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Migrated.From != 14 || s.Migrated.To != SupportedSchema() {
		t.Fatalf("migrated %+v", s.Migrated)
	}
	if w, ok, err := s.TaskWorktree(a.ID); err != nil || !ok || w.Unapplied != 0 || w.Branch != "agentdesk/a" {
		t.Fatalf("after the move %+v %v %v", w, ok, err)
	}
	for _, step := range []struct {
		n       int
		changed bool
	}{{2, true}, {2, false}, {0, true}} {
		changed, err := s.SetUnapplied(a.ID, step.n)
		if err != nil || changed != step.changed {
			t.Fatalf("set %d: changed %v %v, want changed %v", step.n, changed, err, step.changed)
		}
		if w, _, _ := s.TaskWorktree(a.ID); w.Unapplied != step.n {
			t.Fatalf("set %d, read %d", step.n, w.Unapplied)
		}
	}
	if changed, err := s.SetUnapplied(newSession(t, s, "in the folder").ID, 3); err != nil || changed {
		t.Fatalf("a session without a worktree: changed %v %v", changed, err)
	}
	if err := addUnappliedCount(s.db); err != nil {
		t.Fatalf("the migration runs again: %v", err)
	}
}

// The worktree tasks come by repository, most recently active first in each, with their
// sessions' titles and running turns; a removed worktree and a session in its folder are not
// listed.
func TestWorktreeTasksAreListedByRepositoryMostRecentFirst(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.WorktreeTasks(); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("no tasks: %#v %v", got, err)
	}
	older, newer, other, removed := newSession(t, s, "older"), newSession(t, s, "newer"), newSession(t, s, "other"), newSession(t, s, "removed")
	newSession(t, s, "in the folder")
	recordWorktree(t, s, older.ID, "/b-repo", "agentdesk/older")
	recordWorktree(t, s, newer.ID, "/b-repo", "agentdesk/newer")
	recordWorktree(t, s, other.ID, "/a-repo", "agentdesk/other")
	recordWorktree(t, s, removed.ID, "/a-repo", "agentdesk/removed")
	w, _, _ := s.TaskWorktree(removed.ID)
	w.Removed = true
	if err := s.SetTaskWorktree(w); err != nil {
		t.Fatal(err)
	}
	base := time.Now().UTC()
	for id, at := range map[string]time.Time{older.ID: base, newer.ID: base.Add(time.Minute), other.ID: base.Add(-time.Hour)} {
		s.db.Model(&Session{}).Where("id = ?", id).Update("updated_at", at)
	}
	s.db.Model(&Session{}).Where("id = ?", newer.ID).Update("running_turn", "turn-1")
	if _, err := s.SetUnapplied(older.ID, 4); err != nil {
		t.Fatal(err)
	}

	got, err := s.WorktreeTasks()
	if err != nil {
		t.Fatal(err)
	}
	want := []WorktreeTask{
		{SessionID: other.ID, Title: "other", Repo: "/a-repo", Branch: "agentdesk/other"},
		{SessionID: newer.ID, Title: "newer", Repo: "/b-repo", Branch: "agentdesk/newer", RunningTurn: "turn-1"},
		{SessionID: older.ID, Title: "older", Repo: "/b-repo", Branch: "agentdesk/older", Unapplied: 4},
	}
	if len(got) != len(want) {
		t.Fatalf("tasks %+v", got)
	}
	for i, g := range got {
		if g.UpdatedAt.IsZero() {
			t.Errorf("task %d has no last activity", i)
		}
		g.UpdatedAt = time.Time{}
		if g != want[i] {
			t.Errorf("task %d: %+v, want %+v", i, g, want[i])
		}
	}
}
