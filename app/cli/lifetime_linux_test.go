//go:build linux

package cli

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"agentdesk/backend/proc/proctest"
)

// The reproduction: `kill -9` of `agentdesk run` while its bash tool runs. Nothing of the
// tool's process tree (the sandbox helper, the shell, the shell's child, a child that left the
// group with setsid) survives it, and the command's later writes never happen.
func TestKill9OfRunLeavesNoToolProcessBehind(t *testing.T) {
	for _, command := range []string{"sleep 3; touch marker", "setsid -f sh -c 'sleep 3; touch marker'; sleep 3"} {
		kill9DuringCommand(t, command)
	}
}

func kill9DuringCommand(t *testing.T, command string) {
	d, w := t.TempDir(), t.TempDir()
	marker := filepath.Join(w, "marker")
	script := writeScript(t, `{"responses":[
		{"tool_calls":[{"name":"bash","input":{"command":`+strconv.Quote(command)+`}}]},
		{"text":"done"}]}`)
	cmd := exec.Command(os.Args[0], "run", "--workspace", w, "--permission", "full", "--script", script, "--data-dir", d, "wait, then touch")
	cmd.Env = append(os.Environ(), envAsAgentdesk+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitForLine(t, stdout, "→ bash")
	tree := proctest.WaitForDescendant(t, cmd.Process.Pid, "sleep")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	proctest.WaitGone(t, tree, 2*time.Second, "agentdesk run")
	time.Sleep(3500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("%q went on after agentdesk run died: the marker was written", command)
	}
}

func waitForLine(t *testing.T, r io.Reader, want string) {
	t.Helper()
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if strings.Contains(sc.Text(), want) {
				found <- true
				break
			}
		}
		for sc.Scan() { // keep the pipe drained
		}
		found <- false
	}()
	select {
	case ok := <-found:
		if !ok {
			t.Fatalf("the output ended before %q", want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no %q", want)
	}
}
