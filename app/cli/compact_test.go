package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/store"
)

// A compacted session exports and imports with its context.compacted entry, and `sessions fork
// --before` copies the history as it was before the compaction.
func TestACompactedSessionExportsImportsAndForksBefore(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	v := decodeView(t, mustRun(t, "sessions", "create", "--workspace", w, "--json", "--data-dir", d))
	st, err := store.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := st.AppendSteps(v.ID,
		eventlog.UserMessage{TurnID: "t1", Text: "first words"},
		eventlog.AssistantMessage{TurnID: "t1", Text: "first answer"},
		eventlog.UserMessage{TurnID: "t2", Text: "second words"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.AppendStep(v.ID, eventlog.ContextCompacted{TurnID: "t2", From: evs[0].Seq, Through: evs[1].Seq, Summary: "they talked",
		TokensBefore: 900, TokensAfter: 100, Window: 1000, Reason: eventlog.CompactedThreshold})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	exported := mustRun(t, "sessions", "export", v.ID, "--data-dir", d)
	if !strings.Contains(exported, `"context.compacted"`) || !strings.Contains(exported, "they talked") {
		t.Fatalf("the export lacks the compaction:\n%s", exported)
	}
	file := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(file, []byte(exported), 0o600)
	mustRun(t, "sessions", "delete", v.ID, "--data-dir", d)
	back := decodeView(t, mustRun(t, "sessions", "import", file, "--json", "--data-dir", d))

	fork := decodeView(t, mustRun(t, "sessions", "fork", back.ID, "--before", strconv.FormatInt(c.Seq, 10), "--json", "--data-dir", d))
	st, err = store.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for id, want := range map[string]bool{back.ID: true, fork.ID: false} {
		log, _ := st.Log(id)
		has := false
		for _, r := range log {
			_, ok := r.Payload.(eventlog.ContextCompacted)
			has = has || ok
		}
		if has != want {
			t.Fatalf("session %s: compaction present %v, want %v", id, has, want)
		}
	}
	if code, _, errOut := run(t, nil, "sessions", "fork", back.ID, "--before", "-3", "--data-dir", d); code != ExitUsage || !strings.Contains(errOut, "-3") {
		t.Fatalf("a negative --before: %d %s", code, errOut)
	}
}
