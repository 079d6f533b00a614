package tool

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A command AgentDesk runs itself ends with its exit code and the end of its output, within the
// bound; one that outlives its timeout is stopped and says so, as is one whose context ends.
func TestRunCommandBoundsTimeAndOutput(t *testing.T) {
	dir := t.TempDir()
	res, err := RunCommand(context.Background(), dir, "seq 1 20000; echo last line; exit 3", ShellOptions{}, time.Minute, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || len(res.Output) > 1000 || !strings.HasSuffix(res.Output, "last line\n") || strings.HasPrefix(res.Output, "1\n") {
		t.Fatalf("exit %d, %d bytes: %q…", res.ExitCode, len(res.Output), res.Output[:min(40, len(res.Output))])
	}
	res, err = RunCommand(context.Background(), dir, "sleep 30", ShellOptions{}, 300*time.Millisecond, 1000)
	if err != nil || !res.TimedOut || res.Cancelled || res.ExitCode != -1 || res.Duration > 10*time.Second {
		t.Fatalf("timed out: %+v %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err = RunCommand(ctx, dir, "sleep 30", ShellOptions{}, time.Minute, 1000)
	if err != nil || !res.Cancelled || res.TimedOut {
		t.Fatalf("cancelled: %+v %v", res, err)
	}
}
