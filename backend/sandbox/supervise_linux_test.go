//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The helper now stays above the shell; callers still see the shell's own ending: its exit
// status, or the signal that ended it. The first process of a PID namespace cannot end itself
// by a signal (the kernel ignores it), so a namespaced helper reports a shell killed by signal
// N the shell's way, as exit status 128+N.
func TestHelperEndsAsTheShellDid(t *testing.T) {
	requireLandlock(t)
	for _, c := range []struct {
		script string
		code   int
		signal syscall.Signal
	}{
		{"exit 0", 0, 0},
		{"exit 7", 7, 0},
		{"kill -TERM $$", -1, syscall.SIGTERM},
		{"kill -KILL $$", -1, syscall.SIGKILL},
	} {
		for _, unconfined := range []bool{false, true} {
			p := policy(t)
			var cmd *exec.Cmd
			if unconfined {
				cmd = Unconfined(p, "/bin/sh", []string{"-c", c.script}, os.Environ())
			} else {
				var err error
				if cmd, err = Command(p, "/bin/sh", []string{"-c", c.script}, os.Environ()); err != nil {
					t.Fatal(err)
				}
			}
			if helper, _ := helperPath(); cmd.Args[0] != helper {
				t.Fatalf("%q (unconfined %v) does not run under the helper: %v", c.script, unconfined, cmd.Args)
			}
			cmd.Dir = p.Workspace
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			switch {
			case c.code == 0 && err != nil:
				t.Errorf("%q: %v %s", c.script, err, out)
			case c.code > 0 && (!errors.As(err, &exit) || exit.ExitCode() != c.code):
				t.Errorf("%q: %v, want exit %d %s", c.script, err, c.code, out)
			case c.signal != 0 && !unconfined && Status().Namespaces:
				if !errors.As(err, &exit) || exit.ExitCode() != 128+int(c.signal) {
					t.Errorf("%q: %v, want exit %d %s", c.script, err, 128+int(c.signal), out)
				}
			case c.signal != 0:
				ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
				if !ws.Signaled() || ws.Signal() != c.signal {
					t.Errorf("%q: %v, want %v %s", c.script, err, c.signal, out)
				}
			}
		}
	}
}

// Without namespaces the helper is a child subreaper: asked to stop (as the bash tool does on a
// cancel), it ends what the shell started, a process that left the group with setsid included.
func TestAStoppedHelperEndsWhatLeftTheGroup(t *testing.T) {
	requireLandlock(t)
	p := policy(t)
	script := "setsid -f sh -c 'sleep 1; echo late > late'; echo started; sleep 30"
	cmd, err := helperCommand(request{Policy: p, Shell: "/bin/sh", Args: []string{"-c", script}}, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = p.Workspace
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := out.Read(make([]byte, 8)); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(p.Workspace, "late")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a process that left the group outlived the stopped helper: %v", err)
	}
}
