package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

// syncBuffer is a writer read while it is written to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The reproduction: `agentdesk run` at a terminal that never answers. The approval times out
// at its deadline (the shortest the setting allows), the command never runs, the turn ends,
// and the run exits; the prompt on the terminal is told the decision timed out.
func TestRunAtASilentTerminalTimesOutTheDecision(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	if code, _, errOut := run(t, nil, "settings", "set", "decision-timeout", "10s", "--data-dir", d); code != 0 {
		t.Fatalf("settings: %s", errOut)
	}
	script := writeScript(t, `{"responses":[
		{"text":"Creating the file.","tool_calls":[{"name":"bash","input":{"command":"echo hi > out.txt"}}]},
		{"text":"No answer; nothing changed."}]}`)
	stdin, typist := io.Pipe() // a terminal no one types into
	defer typist.Close()
	var out, errOut syncBuffer
	start := time.Now()
	done := make(chan int)
	go func() {
		done <- Main([]string{"run", "--workspace", w, "--permission", "ask", "--script", script, "--data-dir", d, "write hi"},
			Env{Stdin: stdin, Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return true },
				Getenv: func(string) string { return "" }})
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(40 * time.Second):
		t.Fatalf("the run still waits after %v; stderr:\n%s", time.Since(start), errOut.String())
	}
	took := time.Since(start)
	if code != 0 || took < 10*time.Second {
		t.Fatalf("exit %d after %v:\n%s", code, took, errOut.String())
	}
	if !strings.Contains(errOut.String(), "Allow?") || !strings.Contains(errOut.String(), "No response, timed out.") {
		t.Fatalf("the terminal was not asked, or not told:\n%s", errOut.String())
	}
	if _, err := os.Stat(filepath.Join(w, "out.txt")); err == nil {
		t.Fatal("the unanswered command ran")
	}
	st, err := store.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if pending, _ := st.AllPending(); len(pending) != 0 {
		t.Fatalf("still pending: %+v", pending)
	}
	sessions, _ := st.ListSessions()
	events, _ := st.Events(sessions[0].ID)
	var result string
	for _, e := range events {
		if e.Type == "tool.result" {
			result = e.Payload
		}
	}
	if !strings.Contains(result, "DECISION_TIMED_OUT") {
		t.Fatalf("the model was not told the decision timed out: %s", result)
	}
}

// A line typed after a decision timed out answers nothing: not that decision (it is over),
// and not the next one, whose prompt was not up yet. The next one takes the line typed for it.
func TestALateLineNeverAnswersTheNextPrompt(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, _ := st.CreateSession(store.NewSession{Title: "t", Workspace: "/w"})
	b := bus.New()
	defer b.Close(context.Background())
	reg := decision.New(st, b.Publish, decision.Options{Timeout: func() time.Duration { return 300 * time.Millisecond }})
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	stdin, typist := io.Pipe()
	defer typist.Close()
	var errOut syncBuffer
	c := &Context{Env: Env{Stdin: stdin, Stderr: &errOut, IsTerminal: func() bool { return true }}, msgs: msgs, lang: "en"}
	stop := c.startDecider(b, reg, nil)
	defer stop()
	ask := func() decision.Resolution {
		_, res, err := reg.Ask(context.Background(), decision.Request{SessionID: sess.ID, Kind: decision.KindApproval,
			Payload: map[string]string{"tool": "bash", "summary": "rm -rf build"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := ask(); res.Outcome != decision.TimedOut {
		t.Fatalf("first: %+v", res)
	}
	io.WriteString(typist, "y\n") // too late for the first, typed before the second is shown
	time.Sleep(50 * time.Millisecond)
	second := make(chan decision.Resolution)
	go func() { second <- ask() }()
	time.Sleep(100 * time.Millisecond)
	io.WriteString(typist, "n\n")
	io.WriteString(typist, "not now\n")
	res := <-second
	if res.Outcome != decision.Rejected || res.Reason != "not now" {
		t.Fatalf("the second took %+v (%s); stderr:\n%s", res, res.Answer, errOut.String())
	}
}
