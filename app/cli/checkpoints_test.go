package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/i18n"
)

// agentdesk checkpoints: list a headless run's checkpoints, diff one against the workspace,
// preview a restore (nothing changes without --yes), then restore it and undo the restore.
func TestCheckpointsListDiffRestore(t *testing.T) {
	d, w := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(w, "old.txt"), []byte("old\n"), 0o644)
	script := writeScript(t, `{"responses":[
		{"tool_calls":[{"name":"write","input":{"path":"new.txt","content":"new\n"}},{"name":"bash","input":{"command":"rm old.txt"}}]},
		{"text":"Done."}]}`)
	if code, out, errOut := run(t, nil, "run", "--workspace", w, "--permission", "full", "--script", script, "--data-dir", d, "go"); code != 0 {
		t.Fatalf("run: %d %s %s", code, out, errOut)
	}
	_, out, _ := run(t, nil, "sessions", "list", "--json", "--data-dir", d)
	var sessions []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("sessions: %s", out)
	}
	sid := sessions[0].ID
	code, out, errOut := run(t, nil, "checkpoints", "list", "--session", sid, "--json", "--data-dir", d)
	var list []struct {
		ID     int64  `json:"id"`
		Reason string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 6 {
		t.Fatalf("list: %d %s %s", code, out, errOut)
	}
	first := list[len(list)-1]
	if first.Reason != "turn" {
		t.Fatalf("newest first, the turn's checkpoint last: %+v", list)
	}
	id := strconv.FormatInt(first.ID, 10)
	if code, out, _ := run(t, nil, "checkpoints", "diff", id, "--session", sid, "--data-dir", d); code != 0 ||
		!strings.Contains(out, "+++ b/new.txt") || !strings.Contains(out, "-old") {
		t.Fatalf("diff: %d %s", code, out)
	}
	code, out, _ = run(t, nil, "checkpoints", "restore", id, "--session", sid, "--data-dir", d)
	if code != 0 || !strings.Contains(out, "deletes new.txt") || !strings.Contains(out, "brings back old.txt") || !strings.Contains(out, "--yes") {
		t.Fatalf("preview: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(w, "new.txt")); err != nil {
		t.Fatal("a preview restored")
	}
	code, out, errOut = run(t, nil, "checkpoints", "restore", id, "--session", sid, "--yes", "--json", "--data-dir", d)
	var done struct {
		Event struct {
			UndoID int64 `json:"undo_id"`
		} `json:"event"`
	}
	if err := json.Unmarshal([]byte(out), &done); code != 0 || err != nil || done.Event.UndoID == 0 {
		t.Fatalf("restore: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(w, "new.txt")); err == nil {
		t.Fatal("new.txt was not removed")
	}
	if b, _ := os.ReadFile(filepath.Join(w, "old.txt")); string(b) != "old\n" {
		t.Fatal("old.txt was not brought back")
	}
	undo := strconv.FormatInt(done.Event.UndoID, 10)
	if code, out, _ := run(t, nil, "checkpoints", "restore", undo, "--session", sid, "--yes", "--data-dir", d); code != 0 || !strings.Contains(out, "Restored checkpoint") {
		t.Fatalf("undo: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(w, "old.txt")); err == nil {
		t.Fatal("the undo did not return the later state")
	}
	if code, _, _ := run(t, nil, "checkpoints", "list", "--data-dir", d); code != ExitUsage {
		t.Fatalf("a missing --session exits %d", code)
	}
	if code, _, _ := run(t, nil, "checkpoints", "restore", "x", "--session", sid, "--data-dir", d); code != ExitUsage {
		t.Fatalf("a bad checkpoint id exits %d", code)
	}
}

// The checkpoint settings read their defaults, take sizes with units, and refuse bad values.
func TestCheckpointSettings(t *testing.T) {
	d := t.TempDir()
	if _, out, _ := run(t, nil, "settings", "get", "checkpoint-quota", "--data-dir", d); strings.TrimSpace(out) != "2147483648" {
		t.Fatalf("default quota %q", out)
	}
	if code, _, errOut := run(t, nil, "settings", "set", "checkpoint-quota", "512MB", "--data-dir", d); code != 0 {
		t.Fatal(errOut)
	}
	if _, out, _ := run(t, nil, "settings", "get", "checkpoint-quota", "--data-dir", d); strings.TrimSpace(out) != "536870912" {
		t.Fatalf("quota %q", out)
	}
	if code, _, _ := run(t, nil, "settings", "set", "checkpoint-quota", "1KB", "--data-dir", d); code != ExitUsage {
		t.Fatalf("a quota below 64 MB exits %d", code)
	}
	run(t, nil, "settings", "set", "checkpoint-secrets", "*.secret\n.env", "--data-dir", d)
	if _, out, _ := run(t, nil, "settings", "get", "checkpoint-secrets", "--data-dir", d); out != "*.secret\n.env\n" {
		t.Fatalf("secrets %q", out)
	}
	if code, _, _ := run(t, nil, "settings", "set", "review-before-apply", "maybe", "--data-dir", d); code != ExitUsage {
		t.Fatalf("a bad boolean exits %d", code)
	}
}

// Every message the checkpoint commands print has a text in every shipped language: the keys
// written in their sources, and one per checkpoint reason the list names.
func TestCheckpointCommandMessagesExist(t *testing.T) {
	var keys []string
	for _, f := range []string{"checkpoints.go", "settings_checkpoints.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"(cli\.(?:checkpoints|settings)\.[A-Za-z0-9_.]+[A-Za-z0-9_])"`).FindAllSubmatch(src, -1) {
			keys = append(keys, string(m[1]))
		}
	}
	if len(keys) < 8 {
		t.Fatalf("found only %v", keys)
	}
	for _, r := range []string{checkpoint.ReasonTurn, checkpoint.ReasonBeforeTool, checkpoint.ReasonAfterTool, checkpoint.ReasonTurnEnd,
		checkpoint.ReasonBeforeRestore, checkpoint.ReasonRestored, checkpoint.ReasonBeforeReview, checkpoint.ReasonReviewed} {
		keys = append(keys, "cli.checkpoints.reason."+r)
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
