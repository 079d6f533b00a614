package rewind_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/hunk"
	"agentdesk/backend/rewind"
)

func lines(n int, edit map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := edit[i]; ok {
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

// After a turn the Changes view shows each file's hunks; reverting one hunk with a reason puts
// those lines back on the file as it is now (the other hunk stays), is itself undoable, and the
// reason — with the change reverted — reaches the model at the next turn.
func TestRevertingOneHunkWithAReasonReachesTheModelAtTheNextTurn(t *testing.T) {
	base := lines(30, nil)
	changed := lines(30, map[int]string{3: "line three\n", 25: "line twenty-five\n"})
	r := newRig(t, script(call("write", map[string]any{"path": "f.txt", "content": changed}),
		call("write", map[string]any{"path": "made.txt", "content": "made\n"}), `{"text":"Done."}`, `{"text":"Understood."}`),
		checkpoint.Options{})
	put(t, r.workspace, "f.txt", base, 0o640)
	turn := r.send("reword two lines")

	ch, err := r.svc.Changes(r.session, turn)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{}
	for _, f := range ch.Files {
		paths = append(paths, f.Path+":"+f.Action)
	}
	if !slices.Equal(paths, []string{"f.txt:modify", "made.txt:create"}) || ch.Running {
		t.Fatalf("changes: %v (running %v)", paths, ch.Running)
	}
	f := ch.Files[0]
	if len(f.Hunks) != 2 || !slices.Equal(f.HunkStates, []string{"pending", "pending"}) {
		t.Fatalf("hunks %+v states %v", f.Hunks, f.HunkStates)
	}
	reason := "Keep “line 25” as it was: the parser greps for it."
	ev, err := r.svc.Apply(rewind.ReviewRequest{SessionID: r.session, TurnID: turn, Path: "f.txt", Action: eventlog.ReviewRevert,
		Hunks: []int{1}, Reason: reason})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, r.workspace, "f.txt"); got != lines(30, map[int]string{3: "line three\n"}) {
		t.Fatalf("after reverting hunk 2:\n%s", got)
	}
	if info, _ := os.Stat(filepath.Join(r.workspace, "f.txt")); info.Mode().Perm() != 0o640 {
		t.Fatalf("the revert changed the mode: %v", info.Mode())
	}
	if _, err := r.svc.Apply(rewind.ReviewRequest{SessionID: r.session, TurnID: turn, Path: "f.txt", Action: eventlog.ReviewAccept,
		Hunks: []int{0}}); err != nil {
		t.Fatal(err)
	}
	ch, _ = r.svc.Changes(r.session, turn)
	if !slices.Equal(ch.Files[0].HunkStates, []string{"accepted", "reverted"}) || !slices.Equal(ch.Files[0].Reasons, []string{reason}) {
		t.Fatalf("states %v reasons %v", ch.Files[0].HunkStates, ch.Files[0].Reasons)
	}

	r.send("next")
	reqs := r.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last, reason) || !strings.Contains(last, "+line twenty-five") || !strings.Contains(last, "f.txt") {
		t.Fatalf("the next turn's context must carry the reason and the reverted change:\n%s", last)
	}
	if strings.Contains(reqs[len(reqs)-2], reason) {
		t.Fatal("the reason reached a request before the review")
	}

	// The revert is between two checkpoints: restoring the first gives the hunk back.
	restore(t, r, ev.UndoID)
	if got := read(t, r.workspace, "f.txt"); got != changed {
		t.Fatalf("undoing the revert:\n%s", got)
	}
}

// Reverting a file the turn created deletes it (the Changes view listed it as created); a hunk
// whose lines were changed since cannot be reverted and leaves the file alone.
func TestRevertingWholeFilesAndConflicts(t *testing.T) {
	base := lines(12, nil)
	r := newRig(t, script(call("write", map[string]any{"path": "f.txt", "content": lines(12, map[int]string{6: "six\n"})}),
		call("write", map[string]any{"path": "made.txt", "content": "made\n"}), `{"text":"Done."}`), checkpoint.Options{})
	put(t, r.workspace, "f.txt", base, 0o644)
	turn := r.send("go")
	if _, err := r.svc.Apply(rewind.ReviewRequest{SessionID: r.session, TurnID: turn, Path: "made.txt", Action: eventlog.ReviewRevert}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "made.txt")); err == nil {
		t.Fatal("reverting a created file must delete it")
	}
	put(t, r.workspace, "f.txt", lines(12, map[int]string{6: "six, edited by hand\n"}), 0o644)
	_, err := r.svc.Apply(rewind.ReviewRequest{SessionID: r.session, TurnID: turn, Path: "f.txt", Action: eventlog.ReviewRevert, Hunks: []int{0}})
	if errs.KindOf(err) != hunk.Conflict {
		t.Fatalf("a revert over changed lines: %v", err)
	}
	if read(t, r.workspace, "f.txt") != lines(12, map[int]string{6: "six, edited by hand\n"}) {
		t.Fatal("a refused revert changed the file")
	}
	if _, err := r.svc.Apply(rewind.ReviewRequest{SessionID: r.session, TurnID: turn, Path: "f.txt", Action: eventlog.ReviewRevert}); err != nil {
		t.Fatal(err)
	}
	if read(t, r.workspace, "f.txt") != base {
		t.Fatal("reverting the whole file puts it back as before the turn")
	}
	if _, err := r.svc.Apply(rewind.ReviewRequest{SessionID: r.session, TurnID: turn, Path: "nope.txt", Action: eventlog.ReviewAccept}); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a file the turn did not change: %v", err)
	}
}
