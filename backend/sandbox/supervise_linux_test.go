//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
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
