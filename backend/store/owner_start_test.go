//go:build linux || darwin

package store

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The reproduction: a turn's owner died and the kernel gave its pid to another process. The
// pid is alive, but it is not the owner: the start time says so, and the turn is interrupted.
// The owner itself, with its real start time, still counts as alive. A legacy owner without a
// start time is judged by when the process started: after the turn began, it cannot own it.
func TestAReusedPidDoesNotKeepADeadTurnRunning(t *testing.T) {
	s, _ := openTemp(t)
	sess, _ := s.CreateSession(NewSession{Title: "t", Workspace: "/w"})
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Process.Kill()
	pid := other.Process.Pid
	real, err := processStart(pid)
	if err != nil {
		t.Fatalf("start time of a live process: %v", err)
	}
	owners := map[string]string{
		"reused":        fmt.Sprintf("%d:%d:abc", pid, 1),            // the owner's start time, not this process's
		"owner":         fmt.Sprintf("%d:%s:abc", pid, real.token),   // the very process
		"legacy reused": fmt.Sprintf("%d:abc", pid),                  // backdated below: began before the process
		"no such pid":   fmt.Sprintf("%d:%s", pid+1<<22, real.token), // beyond any pid_max
	}
	ids := map[string]string{}
	for name, owner := range owners {
		turn := runningTurn(t, s, sess.ID, name)
		s.db.Model(&Turn{}).Where("id = ?", turn.ID).Update("owner", owner)
		if name == "legacy reused" {
			s.db.Model(&Turn{}).Where("id = ?", turn.ID).Update("created_at", time.Now().Add(-time.Hour))
		}
		ids[name] = turn.ID
	}
	if n, _, err := s.InterruptUnfinished(); err != nil || n != 3 {
		t.Fatalf("interrupted %d turns: %v", n, err)
	}
	for name, id := range ids {
		var got Turn
		s.db.Where("id = ?", id).Take(&got)
		want := TurnInterrupted
		if name == "owner" {
			want = TurnRunning
		}
		if got.Status != want {
			t.Errorf("%s (%s): %s, want %s", name, owners[name], got.Status, want)
		}
	}
}

func TestOwnersRecordTheProcessStartTime(t *testing.T) {
	s, _ := openTemp(t)
	fields := strings.Split(s.owner, ":")
	self, err := processStart(os.Getpid())
	if len(fields) != 3 || err != nil || fields[1] != self.token || self.at.After(time.Now()) || time.Since(self.at) > time.Hour {
		t.Fatalf("owner %q, this process started %+v (%v)", s.owner, self, err)
	}
}
