package cli

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

// historyOf makes a data folder whose history holds n tool results of size bytes each.
func historyOf(t *testing.T, n, size int) string {
	t.Helper()
	dir := t.TempDir()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.CreateSession(store.NewSession{Title: "long", Workspace: t.TempDir()})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	payload, _ := json.Marshal(map[string]any{"turn_id": "t", "call_id": "c", "name": "bash", "content": strings.Repeat("x", size)})
	for i := 0; i < n; i++ {
		if _, err := db.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES (?, ?, 'tool.result', ?, '2025-01-01')`,
			sess.ID, i+10, string(payload)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Each long check says on stderr when it starts and how long it took; stdout holds the JSON
// report and nothing else.
func TestDoctorTellsEachLongCheckOnStderrAndKeepsStdoutJSON(t *testing.T) {
	dir := historyOf(t, 20, 2000)
	code, out, errOut := run(t, map[string]string{"AGENTDESK_LANG": "en"}, "doctor", "--json", "--data-dir", dir)
	var rep DoctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("doctor: %d %v\nstdout: %s\nstderr: %s", code, err, out, errOut)
	}
	want := []string{
		"… database: opening " + dir,
		"✓ database: done in ",
		"… integrity: reading every page of ",
		"✓ integrity: done in ",
		"… history: decoding every entry",
		"✓ history: done in ",
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != len(want) {
		t.Fatalf("stderr must have a start and an end line per long check:\n%s", errOut)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Fatalf("line %d: want %q, got %q", i+1, w, lines[i])
		}
	}
	if strings.Contains(out, "…") || strings.Contains(out, "done in") {
		t.Fatalf("progress leaked onto stdout: %s", out)
	}
	_, _, zh := run(t, map[string]string{"AGENTDESK_LANG": "zh-CN"}, "doctor", "--json", "--data-dir", dir)
	if !strings.Contains(zh, "正在读取") || !strings.Contains(zh, "用时") {
		t.Fatalf("the progress is not localized:\n%s", zh)
	}
}

// Ctrl+C while a check runs: the check stops, stderr says which one and what had finished,
// the exit is 130, and stdout holds no half of a JSON report.
func TestDoctorCancelledByCtrlCSaysWhereAndPrintsNoJSON(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("os.Interrupt cannot be sent to a process on Windows")
	}
	// Eight 5 MB results: decoding them takes half a second without -race, several with it,
	// long enough for the signal to land while the history check runs.
	dir := historyOf(t, 8, 5<<20)
	cmd := exec.Command(os.Args[0], "doctor", "--json", "--data-dir", dir)
	cmd.Env = append(os.Environ(), envAsAgentdesk+"=1", "AGENTDESK_LANG=en")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	guard := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer guard.Stop()
	var seen strings.Builder
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		seen.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "… history:") {
			break
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	seen.Write(rest)
	cmd.Wait()
	errOut := seen.String()
	if code := cmd.ProcessState.ExitCode(); code != ExitCancelled {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, ExitCancelled, errOut)
	}
	if stdout.Len() != 0 {
		t.Fatalf("a cancelled --json run printed a report: %q", stdout.String())
	}
	for _, want := range []string{"■ history: stopped after ", "agentdesk: doctor was cancelled during the history check; finished: libraries, data, database, integrity."} {
		if !strings.Contains(errOut, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// A cancel before a check starts stops the run there, and the text report keeps the lines of
// the checks that finished.
func TestDoctorCancelledBeforeTheLongChecksKeepsTheFinishedLines(t *testing.T) {
	var out, errOut bytes.Buffer
	c := testContext(t, &out, &errOut)
	c.DataDir = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, stoppedAt := c.diagnose(ctx, c.newProgress())
	if stoppedAt != "database" || len(rep.Checks) != 2 {
		t.Fatalf("stopped at %q after %+v", stoppedAt, rep.Checks)
	}
	if code := c.doctorCancelled(rep, stoppedAt, false); code != ExitCancelled {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out.String(), "✓ data ") || !strings.Contains(errOut.String(), "during the database check; finished: libraries, data.") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
}

// The full check of a big file says how long it will take before it starts; a small one does
// not guess.
func TestIntegrityEstimateBeforeALargeFile(t *testing.T) {
	about, long := integrityEstimate(1_400_000_000)
	if !long || about != 35*time.Second || formatSize(1_400_000_000) != "1.4 GB" {
		t.Fatalf("1.4 GB: %v %v %q", about, long, formatSize(1_400_000_000))
	}
	c := testContext(t, io.Discard, io.Discard)
	if got := c.T("cli.doctor.progress.integrityLong", "Size", "1.4 GB", "Seconds", int(about.Seconds())); got !=
		"reading every page of 1.4 GB, about 35 s (Ctrl+C stops it)" {
		t.Fatalf("the estimate line: %q", got)
	}
	if _, long := integrityEstimate(150_000_000); long {
		t.Fatal("a 150 MB file checks in a few seconds: no estimate")
	}
}

// Away from a terminal, a running check prints a line at each interval, with its estimate.
func TestProgressTicksWhileACheckRuns(t *testing.T) {
	var errOut bytes.Buffer
	c := testContext(t, io.Discard, &errOut)
	p := &progress{c: c, w: &errOut, every: 10 * time.Millisecond}
	p.run(context.Background(), "integrity", "reading", p.estimated(40*time.Second), func() Check {
		time.Sleep(80 * time.Millisecond)
		return Check{Name: "integrity", OK: true}
	})
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if len(lines) < 3 || lines[1] != "… integrity: 0 s of about 40 s" || !strings.HasPrefix(lines[len(lines)-1], "✓ integrity: done in 0.") {
		t.Fatalf("ticks:\n%s", errOut.String())
	}
}

func testContext(t *testing.T, stdout, stderr io.Writer) *Context {
	t.Helper()
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &Context{Env: Env{Stdout: stdout, Stderr: stderr}, msgs: msgs, lang: "en"}
}

// On a terminal the seconds count in place, and the end line starts on a blanked line.
func TestProgressCountsInPlaceOnATerminal(t *testing.T) {
	var errOut bytes.Buffer
	c := testContext(t, io.Discard, &errOut)
	p := &progress{c: c, w: &errOut, tty: true, every: 10 * time.Millisecond}
	p.run(context.Background(), "events", "decoding", nil, func() Check {
		time.Sleep(50 * time.Millisecond)
		return Check{Name: "events", OK: true}
	})
	got := errOut.String()
	tick := "… history: 0 s so far"
	if strings.Count(got, "\n") != 2 || !strings.Contains(got, tick+"\r"+strings.Repeat(" ", len(tick))+"\r✓ history: done in 0.") {
		t.Fatalf("in place: %q", got)
	}
}

// The history check counts its entries: how far it got is a count, not only seconds.
func TestProgressOfTheHistoryIsACount(t *testing.T) {
	p := &progress{c: testContext(t, io.Discard, io.Discard)}
	var done atomic.Int64
	done.Store(120000)
	if got := p.counted(&done, 350000)(3 * time.Second); got != "120000 of 350000 entries, 3 s" {
		t.Fatalf("%q", got)
	}
}
