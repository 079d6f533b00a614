package rewind_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/rewind"
)

const secret = "API_TOKEN=SECRET-ONLY-IN-DOT-ENV"

// workspace is a small project under git, with an executable, a private file, a link, a
// secret and an ignored build output.
func workspace(t *testing.T, ws string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git")
	}
	put(t, ws, "a.txt", "alpha\nbeta\ngamma\n", 0o644)
	put(t, ws, "run.sh", "#!/bin/sh\necho run\n", 0o755)
	put(t, ws, "private.txt", "mine\n", 0o600)
	put(t, ws, "nested/dir/deep.go", "package deep\n", 0o644)
	put(t, ws, "old.txt", "old\n", 0o644)
	put(t, ws, ".env", secret+"\n", 0o600)
	put(t, ws, ".gitignore", "build/\n", 0o644)
	put(t, ws, "build/out.bin", "IGNORED-BUILD-OUTPUT", 0o644)
	if err := os.Symlink("a.txt", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	sh(t, ws, "git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm one")
}

// The turn of the "Done when": it edits, creates, deletes, changes a mode and a link,
// and runs sh -c 'echo x > generated.txt; rm old.txt' — every call approved in Ask.
var turnScript = []string{
	call("edit", map[string]any{"path": "a.txt", "old_string": "beta", "new_string": "BETA"}),
	call("write", map[string]any{"path": "new.txt", "content": "new\n"}),
	call("bash", map[string]any{"command": "rm nested/dir/deep.go"}),
	call("bash", map[string]any{"command": "sh -c 'echo x > generated.txt; rm old.txt'"}),
	call("bash", map[string]any{"command": "chmod 644 run.sh && ln -sfn private.txt link"}),
	`{"text":"Done."}`,
}

// Through the runtime, on real files: every call is taken between two checkpoints that see the
// shell's side effects; restoring the turn's checkpoint gives the workspace back byte for byte
// (modes and links included) and lists its deletes first; the user's .git is byte-identical
// after any number of snapshots and restores; the secret is never stored; undoing the restore
// returns the later state; and the model hears of the restore at the next turn.
func TestATurnIsRestoredByteIdenticallyThroughTheRuntime(t *testing.T) {
	r := newRig(t, script(append(turnScript, `{"text":"I see the files were restored."}`)...), checkpoint.Options{})
	workspace(t, r.workspace)
	git := gitState(t, r.workspace)
	before := tree(t, r.workspace)

	turn := r.send("change the project")
	after := tree(t, r.workspace)
	if after == before || !strings.Contains(after, "generated.txt") || strings.Contains(after, "old.txt") {
		t.Fatalf("the turn did not run as scripted:\n%s", after)
	}
	assertCheckpointsAroundEveryCall(t, r.checkpoints())

	id := r.turnCheckpoint(turn)
	p, err := r.svc.Preview(rewind.PreviewRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeFiles})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Deletes, []string{"generated.txt", "new.txt"}) {
		t.Fatalf("the preview must list what the restore deletes: %v", p.Deletes)
	}
	if i := slices.IndexFunc(p.Files, func(f rewind.FileDiff) bool { return f.Path == "a.txt" }); i < 0 || len(p.Files[i].Hunks) != 1 {
		t.Fatalf("the preview shows each file's diff: %+v", p.Files)
	}
	done, err := r.svc.Restore(rewind.RestoreRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeFiles, Deletes: p.Deletes})
	if err != nil {
		t.Fatal(err)
	}
	if now := tree(t, r.workspace); now != before {
		t.Fatalf("the restore is not byte-identical:\n got %s\nwant %s", now, before)
	}
	undo := restore(t, r, done.Event.UndoID)
	if !slices.Equal(undo.Event.Changed, []eventlog.FileChange{{Path: "a.txt", Action: "modify"}, {Path: "generated.txt", Action: "create"},
		{Path: "link", Action: "modify"}, {Path: "nested/dir/deep.go", Action: "delete"}, {Path: "new.txt", Action: "create"},
		{Path: "old.txt", Action: "delete"}, {Path: "run.sh", Action: "modify"}}) {
		t.Fatalf("the undo changed %+v", undo.Event.Changed)
	}
	if now := tree(t, r.workspace); now != after {
		t.Fatalf("undoing the restore did not return the later state:\n got %s\nwant %s", now, after)
	}
	if now := gitState(t, r.workspace); now != git {
		t.Fatalf("the user's .git changed:\n%s\nvs\n%s", git, now)
	}
	assertNeverStored(t, r, secret, ".env", "IGNORED-BUILD-OUTPUT")

	r.send("what happened?")
	reqs := r.requests()
	if last := reqs[len(reqs)-1]; !strings.Contains(last, "restored the workspace files") || !strings.Contains(last, "generated.txt") {
		t.Fatalf("the next turn's context must say what was restored:\n%s", last)
	}
}

// Around each call a before and an after checkpoint, and the shell's side effects are what the
// after one lists.
func assertCheckpointsAroundEveryCall(t *testing.T, cps []eventlog.Checkpoint) {
	t.Helper()
	var reasons []string
	var shell []eventlog.FileChange
	for _, c := range cps {
		if c.Error != "" || c.CheckpointID == 0 {
			t.Fatalf("a checkpoint failed: %+v", c)
		}
		reasons = append(reasons, c.Reason)
		if c.Reason == checkpoint.ReasonAfterTool && slices.ContainsFunc(c.Changed, func(f eventlog.FileChange) bool { return f.Path == "generated.txt" }) {
			shell = c.Changed
		}
	}
	want := []string{"turn"}
	for range 5 {
		want = append(want, "before_tool", "after_tool")
	}
	want = append(want, "turn_end")
	if !slices.Equal(reasons, want) {
		t.Fatalf("checkpoints %v, want %v", reasons, want)
	}
	wantShell := []eventlog.FileChange{{Path: "generated.txt", Action: "create"}, {Path: "old.txt", Action: "delete"}}
	if !slices.Equal(shell, wantShell) {
		t.Fatalf("the shell's side effects: %+v, want %+v", shell, wantShell)
	}
	if end := cps[len(cps)-1]; len(end.Changed) != 7 {
		t.Fatalf("the turn's end lists the whole turn's changes: %+v", end.Changed)
	}
}

// assertNeverStored reads every checkpoint of the session back: no entry names the secret
// file, and no stored content holds any of the texts.
func assertNeverStored(t *testing.T, r *rig, secretText, secretPath string, others ...string) {
	t.Helper()
	list, err := r.cps.List(r.session)
	if err != nil || len(list) == 0 {
		t.Fatalf("checkpoints: %v %v", list, err)
	}
	for _, c := range list {
		entries, err := r.cps.Entries(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Path == secretPath || strings.HasPrefix(e.Path, "build/") || strings.HasPrefix(e.Path, ".git/") {
				t.Fatalf("checkpoint %d holds %s", c.ID, e.Path)
			}
			if e.Hash == "" || e.Large {
				continue
			}
			content, err := r.cps.Content(e.Hash)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range append(others, secretText) {
				if bytes.Contains(content, []byte(s)) {
					t.Fatalf("checkpoint %d stores %q in %s", c.ID, s, e.Path)
				}
			}
		}
	}
	if read(t, r.workspace, secretPath) != secretText+"\n" {
		t.Fatal("the secret file changed")
	}
}

// Many turns and restores in a row leave the user's repository as it was: index, HEAD, refs
// and objects.
func TestTheUsersGitIsUntouchedByAnyNumberOfCheckpointsAndRestores(t *testing.T) {
	var responses []string
	for i := range 4 {
		responses = append(responses, call("bash", map[string]any{"command": "echo " + strings.Repeat("x", i+1) + " >> a.txt; touch f" + string(rune('0'+i))}),
			`{"text":"ok"}`)
	}
	r := newRig(t, script(responses...), checkpoint.Options{})
	workspace(t, r.workspace)
	git := gitState(t, r.workspace)
	var turns []string
	for range 4 {
		turns = append(turns, r.send("append"))
	}
	for _, turn := range []string{turns[0], turns[2], turns[1]} {
		done := restore(t, r, r.turnCheckpoint(turn))
		restore(t, r, done.Event.UndoID)
	}
	if now := gitState(t, r.workspace); now != git {
		t.Fatalf("the user's .git changed:\n%s\nvs\n%s", git, now)
	}
	sh(t, r.workspace, "git status --porcelain > /dev/null && git fsck --no-progress 2>&1 | grep -v '^dangling' | (! grep .)")
}

// The conversation is restored by forking before the checkpoint's turn: the fork holds the
// earlier turns only, and its first model request shows none of the later one.
func TestTheConversationIsRestoredByAForkBeforeTheTurn(t *testing.T) {
	r := newRig(t, script(`{"text":"first answer"}`, call("write", map[string]any{"path": "n.txt", "content": "n"}),
		`{"text":"second answer"}`, `{"text":"answer in the fork"}`), checkpoint.Options{})
	r.send("first question")
	second := r.send("second question")
	id := r.turnCheckpoint(second)
	p, err := r.svc.Preview(rewind.PreviewRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeBoth})
	if err != nil || p.Prompt != "second question" || !slices.Equal(p.Deletes, []string{"n.txt"}) {
		t.Fatalf("preview: %+v %v", p, err)
	}
	done, err := r.svc.Restore(rewind.RestoreRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeBoth, Deletes: p.Deletes})
	if err != nil || done.Fork == nil {
		t.Fatalf("restore: %+v %v", done, err)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "n.txt")); err == nil {
		t.Fatal("the files were not restored")
	}
	r.session = done.Fork.ID
	r.send("third question")
	reqs := r.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last, "first question") || strings.Contains(last, "second question") || strings.Contains(last, "second answer") {
		t.Fatalf("the fork's conversation must stop before the turn:\n%s", last)
	}
	if _, err := r.svc.Preview(rewind.PreviewRequest{SessionID: r.session, CheckpointID: done.Event.UndoID, Scope: eventlog.ScopeConversation}); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a checkpoint of another session is not found from the fork: %v", err)
	}
}

// While a turn runs its files move: a restore waits for its end.
func TestARestoreWaitsForTheRunningTurn(t *testing.T) {
	r := newRig(t, script(`{"text":"slow","delay_ms":1500}`), checkpoint.Options{})
	ack, err := r.rt.Send(agentInput(r, "go"))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var id int64
	for id == 0 && time.Now().Before(deadline) {
		for _, c := range r.checkpoints() {
			if c.TurnID == ack.TurnID {
				id = c.CheckpointID
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, err = r.svc.Restore(rewind.RestoreRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeFiles})
	if errs.KindOf(err) != rewind.Busy {
		t.Fatalf("a restore during a turn: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.rt.Wait(ctx, r.session); err != nil {
		t.Fatal(err)
	}
}

// restore previews the files of a checkpoint and confirms the deletes the preview listed.
func restore(t *testing.T, r *rig, id int64) rewind.Restored {
	t.Helper()
	p, err := r.svc.Preview(rewind.PreviewRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeFiles})
	if err != nil {
		t.Fatal(err)
	}
	done, err := r.svc.Restore(rewind.RestoreRequest{SessionID: r.session, CheckpointID: id, Scope: eventlog.ScopeFiles, Deletes: p.Deletes})
	if err != nil {
		t.Fatal(err)
	}
	return done
}

func agentInput(r *rig, text string) agent.Input {
	return agent.Input{SessionID: r.session, Text: text}
}
