//go:build linux

package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"agentdesk/backend/store"
)

// envAsTerminal makes the agentdesk that TestMain runs take its stdin for a terminal.
const envAsTerminal = "AGENTDESK_TEST_TERMINAL"

// `kill -9` of `agentdesk run` while it asks on the terminal: the command has not run, and
// `agentdesk resume SESSION` asks the same approval again and, allowed, carries the turn to its
// end.
func TestResumeAsksAgainWhatAKilledRunWasAsking(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"responses":[
		{"tool_calls":[{"name":"bash","input":{"command":"echo made > out.txt"}}]},
		{"text":"Made out.txt."}]}`)
	cmd := exec.Command(os.Args[0], "run", "--workspace", w, "--permission", "ask", "--script", script, "--data-dir", d, "make out.txt")
	cmd.Env = append(os.Environ(), envAsAgentdesk+"=1", envAsTerminal+"=1", "AGENTDESK_LANG=en")
	typist, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer typist.Close()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitForLine(t, stderr, "The agent wants to run bash")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(w, "out.txt")); err == nil {
		t.Fatal("the unanswered command ran")
	}
	sessionID, pendingID := waitingDecision(t, d)

	in, answer := io.Pipe()
	go func() { io.WriteString(answer, "y\n") }()
	var out, errOut syncBuffer
	code := Main([]string{"resume", sessionID, "--script", script, "--data-dir", d},
		Env{Stdin: in, Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return true }, Getenv: func(string) string { return "" }})
	if code != 0 || !strings.Contains(errOut.String(), "echo made > out.txt") {
		t.Fatalf("resume exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if b, err := os.ReadFile(filepath.Join(w, "out.txt")); err != nil || strings.TrimSpace(string(b)) != "made" {
		t.Fatalf("out.txt: %q, %v", b, err)
	}
	st, err := store.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if row, err := st.Decision(pendingID); err != nil || row.Status != store.DecisionAnswered {
		t.Fatalf("the decision asked again ended as %+v, %v", row, err)
	}
	if code, _, errOut := run(t, nil, "resume", sessionID, "--script", script, "--data-dir", d); code == 0 || !strings.Contains(errOut, "Nothing") {
		t.Fatalf("a second resume: exit %d, %s", code, errOut)
	}
}

// waitingDecision reads the one session of data folder d and its one pending decision.
func waitingDecision(t *testing.T, d string) (sessionID, decisionID string) {
	t.Helper()
	st, err := store.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pending, err := st.AllPending()
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending after the kill: %+v, %v", pending, err)
	}
	return pending[0].SessionID, pending[0].ID
}
