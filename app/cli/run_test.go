package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A run without a terminal declines every decision at once, tells the model why, and ends.
func TestNonInteractiveRunDeclinesAndFinishes(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"responses":[
		{"text":"Creating the file.","tool_calls":[{"name":"bash","input":{"command":"echo hi > out.txt"}}]},
		{"text":"It was declined; nothing changed."}]}`)
	record := filepath.Join(t.TempDir(), "record.json")
	done := make(chan struct{})
	var code int
	var out, errOut string
	go func() {
		code, out, errOut = run(t, nil, "run", "--workspace", w, "--permission", "ask", "--script", script,
			"--record", record, "--data-dir", d, "write hi to out.txt")
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("a non-interactive run hung on a decision")
	}
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(w, "out.txt")); err == nil {
		t.Fatal("the declined command ran")
	}
	raw, _ := os.ReadFile(record)
	var rec struct {
		Requests []struct {
			Messages []struct {
				ToolResults []struct{ Content string } `json:"tool_results"`
			} `json:"messages"`
		} `json:"requests"`
	}
	json.Unmarshal(raw, &rec)
	if len(rec.Requests) != 2 {
		t.Fatalf("%d requests", len(rec.Requests))
	}
	msgs := rec.Requests[1].Messages
	got := msgs[len(msgs)-1].ToolResults[0].Content
	if !strings.Contains(got, "non-interactive run") {
		t.Fatalf("the model saw %q", got)
	}
}

func TestRunExitCodes(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	failing := writeScript(t, `{"responses":[{"error":"overloaded"}]}`)
	if code, _, _ := run(t, nil, "run", "--workspace", w, "--script", failing, "--data-dir", d, "hi"); code != ExitFailure {
		t.Fatalf("a provider failure exits %d, want 1", code)
	}
	if code, _, _ := run(t, nil, "run", "--workspace", w, "--script", failing, "--once", "turbo", "--data-dir", d, "hi"); code != ExitUsage {
		t.Fatalf("a bad --once exits %d, want 2", code)
	}
	if code, _, _ := run(t, nil, "run", "--workspace", w, "--provider", "gemini", "--data-dir", d, "hi"); code != ExitUsage {
		t.Fatalf("an unknown provider exits %d, want 2", code)
	}
	if code, _, _ := run(t, nil, "run", "--workspace", w, "--script", failing, "--data-dir", d); code != ExitUsage {
		t.Fatalf("a missing prompt exits %d, want 2", code)
	}
}

func TestRunJSONIsNDJSONEvents(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"responses":[{"text":"Hello there."}]}`)
	code, out, errOut := run(t, nil, "run", "--workspace", w, "--script", script, "--json", "--mode", "chat", "--data-dir", d, "hello")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var names []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var e struct{ Name string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not NDJSON: %q", sc.Text())
		}
		names = append(names, e.Name)
	}
	joined := strings.Join(names, ",")
	if !strings.Contains(joined, "turn.started") || !strings.HasSuffix(joined, "turn.ended") || !strings.Contains(joined, "turn.delta") {
		t.Fatalf("events: %s", joined)
	}
}

func TestRunWithoutAProviderUsesSettingsAndSaysWhatIsMissing(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	code, _, errOut := run(t, nil, "run", "--workspace", w, "--data-dir", d, "hello")
	if code != ExitFailure || !strings.Contains(errOut, "NO_PROVIDER") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// Sessions on external agents from the command line: the agent must be saved in Settings, and
// Chat is a validation error (exit 2), refused before the agent is started.
func TestRunOnAnExternalAgentValidates(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	if code, _, errOut := run(t, nil, "sessions", "create", "--workspace", w, "--agent", "goose acp", "--data-dir", d); code != ExitUsage ||
		!strings.Contains(errOut, "goose acp") {
		t.Fatalf("an agent not saved in Settings exits 2 naming it: %d %q", code, errOut)
	}
	if code, _, errOut := run(t, nil, "settings", "set", "external-agents", "goose acp\n\n  false  \n", "--data-dir", d); code != 0 {
		t.Fatalf("set: %d %s", code, errOut)
	}
	if code, out, _ := run(t, nil, "settings", "get", "external-agents", "--data-dir", d); code != 0 || out != "goose acp\nfalse\n" {
		t.Fatalf("one command line per line: %d %q", code, out)
	}
	code, out, errOut := run(t, nil, "sessions", "create", "--workspace", w, "--agent", "false", "--json", "--data-dir", d)
	if code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	var v struct{ ID string }
	json.Unmarshal([]byte(out), &v)
	if code, _, errOut := run(t, nil, "run", "--session", v.ID, "--mode", "chat", "--data-dir", d, "hi"); code != ExitUsage ||
		!strings.Contains(errOut, "no-tool contract") {
		t.Fatalf("Chat on an external agent exits 2 before the agent starts: %d %q", code, errOut)
	}
	if code, _, errOut := run(t, nil, "run", "--session", v.ID, "--data-dir", d, "hi"); code != ExitFailure || !strings.Contains(errOut, "false") {
		t.Fatalf("an agent that cannot start exits 1: %d %q", code, errOut)
	}
	if code, out, _ := run(t, nil, "settings", "get", "external-agent-start-timeout", "--data-dir", d); code != 0 || out != "2m0s\n" {
		t.Fatalf("the start-up limit defaults to 120 s: %q", out)
	}
	if code, _, errOut := run(t, nil, "settings", "set", "external-agent-start-timeout", "1s", "--data-dir", d); code != ExitUsage || !strings.Contains(errOut, "5s–30m") {
		t.Fatalf("a limit out of range exits 2 naming the range: %d %q", code, errOut)
	}
}
