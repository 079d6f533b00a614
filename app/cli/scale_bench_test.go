package cli

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"testing"

	"agentdesk/build/scaledata"
)

// BenchmarkScaleSessionsList runs `agentdesk sessions list --json` on the scale folder (10,000
// sessions, 1,000,000 events in Year) end to end: the store opened, the most recent sessions
// listed and printed, as the command does unless told otherwise.
func BenchmarkScaleSessionsList(b *testing.B) { benchList(b, defaultListLimit) }

// BenchmarkScaleSessionsListAll is the same with --limit 0: every session of the folder.
func BenchmarkScaleSessionsListAll(b *testing.B) { benchList(b, 0) }

func benchList(b *testing.B, limit int) {
	dir, m, err := scaledata.Folder()
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Stdin: bytes.NewReader(nil), IsTerminal: func() bool { return false },
		Getenv: os.Getenv}
	for b.Loop() {
		var out countingWriter
		env.Stdout = &out
		if code := Main([]string{"sessions", "list", "--json", "--limit", strconv.Itoa(limit), "--data-dir", dir}, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
		if want := m.Sessions; out.lines != want && (limit == 0 || out.lines != min(limit, want)) {
			b.Fatalf("%d lines for %d sessions", out.lines, m.Sessions)
		}
	}
}

// countingWriter counts the sessions of a JSON list as it is written, a row's start split
// across two writes included.
type countingWriter struct {
	lines int
	tail  []byte
}

var rowStart = []byte("\n  {")

func (w *countingWriter) Write(p []byte) (int, error) {
	joined := append(w.tail, p...)
	w.lines += bytes.Count(joined, rowStart)
	w.tail = append([]byte(nil), joined[max(0, len(joined)-len(rowStart)+1):]...)
	return len(p), nil
}
