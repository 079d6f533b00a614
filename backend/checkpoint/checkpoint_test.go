package checkpoint

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/errs"
)

func open(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func put(t *testing.T, root, rel, content string, perm fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
}

// tree is every file and link under root with its mode and content (or target): what a
// byte-identical restore must give back.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			link, _ := os.Readlink(p)
			out[rel] = "link->" + link
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = fmt.Sprintf("%v %q", info.Mode().Perm(), b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func snap(t *testing.T, s *Store, ws, reason string) Checkpoint {
	t.Helper()
	c, err := s.Snapshot(Request{SessionID: "s1", Workspace: ws, Reason: reason})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", script, err, out)
	}
}

// A turn that edits, creates, deletes, changes a mode and a link, and runs a shell command with
// side effects is undone byte for byte, and the undo is itself undone.
func TestRestoreIsByteIdenticalAndCanBeUndone(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "a.txt", "alpha\n", 0o644)
	put(t, ws, "run.sh", "#!/bin/sh\necho run\n", 0o755)
	put(t, ws, "private.txt", "mine\n", 0o600)
	put(t, ws, "nested/dir/deep.go", "package deep\n", 0o644)
	put(t, ws, "old.txt", "old\n", 0o644)
	if err := os.Symlink("a.txt", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	before := tree(t, ws)
	a := snap(t, s, ws, ReasonTurn)

	put(t, ws, "a.txt", "alpha, edited\n", 0o644)
	put(t, ws, "new.txt", "new\n", 0o644)
	os.Remove(filepath.Join(ws, "nested/dir/deep.go"))
	os.Chmod(filepath.Join(ws, "run.sh"), 0o644)
	os.Remove(filepath.Join(ws, "link"))
	os.Symlink("private.txt", filepath.Join(ws, "link"))
	sh(t, ws, "echo x > generated.txt; rm old.txt")
	after := tree(t, ws)
	b := snap(t, s, ws, ReasonAfterTool)

	changes, err := s.Diff(a.ID, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range changes {
		got[c.Path] = c.Action
	}
	want := map[string]string{"a.txt": "modify", "new.txt": "create", "nested/dir/deep.go": "delete", "run.sh": "modify",
		"link": "modify", "generated.txt": "create", "old.txt": "delete"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("diff %v, want %v", got, want)
	}

	plan, err := s.PlanRestore(a.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Deletes, []string{"generated.txt", "new.txt"}) {
		t.Fatalf("the plan must list what the restore deletes: %v", plan.Deletes)
	}
	if _, err := s.Restore(a.ID, Request{SessionID: "s1"}, RestoreOptions{}); errs.KindOf(err) != NeedsConfirmation {
		t.Fatalf("a restore that deletes must be confirmed: %v", err)
	}
	if fmt.Sprint(tree(t, ws)) != fmt.Sprint(after) {
		t.Fatal("a refused restore changed the workspace")
	}
	done, err := s.Restore(a.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true})
	if err != nil {
		t.Fatal(err)
	}
	if now := tree(t, ws); fmt.Sprint(now) != fmt.Sprint(before) {
		t.Fatalf("restore is not byte-identical:\n got %v\nwant %v", now, before)
	}
	if done.Undo.Reason != ReasonBeforeRestore || done.Result.Reason != ReasonRestored {
		t.Fatalf("a restore records the state it replaced and the one it made: %+v", done)
	}
	if _, err := s.Restore(done.Undo.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true}); err != nil {
		t.Fatal(err)
	}
	if now := tree(t, ws); fmt.Sprint(now) != fmt.Sprint(after) {
		t.Fatalf("undoing the restore did not return the later state:\n got %v\nwant %v", now, after)
	}
}

// A restore of some files leaves the others as they are.
func TestRestoreOfOneFile(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "a.txt", "a1", 0o644)
	put(t, ws, "b.txt", "b1", 0o644)
	c := snap(t, s, ws, ReasonTurn)
	put(t, ws, "a.txt", "a2", 0o644)
	put(t, ws, "b.txt", "b2", 0o644)
	if _, err := s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{Paths: []string{"a.txt"}}); err != nil {
		t.Fatal(err)
	}
	if a, b := read(t, ws, "a.txt"), read(t, ws, "b.txt"); a != "a1" || b != "b2" {
		t.Fatalf("a.txt %q b.txt %q", a, b)
	}
}

func read(t *testing.T, ws, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// gitState is everything of a .git folder: each file's path and content hash.
func gitState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	objects := 0
	filepath.WalkDir(filepath.Join(dir, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, _ := os.ReadFile(p)
		if strings.Contains(p, "/objects/") {
			objects++
		}
		fmt.Fprintf(&b, "%s %x\n", p, sha256.Sum256(content))
		return nil
	})
	fmt.Fprintf(&b, "objects %d\n", objects)
	return b.String()
}

// The person's repository is never touched: index, HEAD, refs and objects are byte-identical
// after any number of snapshots and restores.
func TestTheUsersGitIsUntouched(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git")
	}
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "main.go", "package main\n", 0o644)
	sh(t, ws, "git init -q && git -c user.email=a@b -c user.name=a add -A && git -c user.email=a@b -c user.name=a commit -qm one")
	before := gitState(t, ws)
	first := snap(t, s, ws, ReasonTurn)
	for i := range 3 {
		put(t, ws, "main.go", fmt.Sprintf("package main // %d\n", i), 0o644)
		put(t, ws, fmt.Sprintf("new%d.go", i), "package main\n", 0o644)
		snap(t, s, ws, ReasonAfterTool)
	}
	done, err := s.Restore(first.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(done.Undo.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true}); err != nil {
		t.Fatal(err)
	}
	if after := gitState(t, ws); after != before {
		t.Fatalf(".git changed:\n%s\nvs\n%s", before, after)
	}
	if entries, _ := manifestEntries(s.db, first.Manifest); slices.ContainsFunc(entries, func(e Entry) bool { return strings.HasPrefix(e.Path, ".git") }) {
		t.Fatal("the snapshot recorded .git")
	}
}

// Secrets and ignored files are never stored, and a restore leaves them alone.
func TestSecretsAndIgnoredFilesAreNeverStored(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	secrets := map[string]string{".env": "API=SECRET-ENV", ".env.local": "SECRET-ENV-LOCAL", "id_ed25519": "SECRET-SSH-KEY",
		"certs/server.pem": "SECRET-PEM", "build/out.bin": "IGNORED-BUILD", "logs/app.log": "IGNORED-LOG",
		"pkg/local.tmp": "IGNORED-NESTED", ".git/config": "GIT-CONFIG"}
	for rel, content := range secrets {
		put(t, ws, rel, content, 0o600)
	}
	put(t, ws, ".gitignore", "build/\n*.log\n", 0o644)
	put(t, ws, "pkg/.gitignore", "*.tmp\n", 0o644)
	put(t, ws, "pkg/code.go", "package pkg\n", 0o644)
	c := snap(t, s, ws, ReasonTurn)
	var blobs [][]byte
	if err := s.db.Raw("SELECT data FROM blobs").Scan(&blobs).Error; err != nil {
		t.Fatal(err)
	}
	for _, data := range blobs {
		plain, err := decoder.DecodeAll(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for rel, content := range secrets {
			if bytes.Contains(plain, []byte(content)) || bytes.Contains(plain, []byte(`"`+rel+`"`)) {
				t.Fatalf("%s is in the store", rel)
			}
		}
	}
	if entries, _ := manifestEntries(s.db, c.Manifest); len(entries) != 3 {
		t.Fatalf("the snapshot should hold .gitignore, pkg/.gitignore and pkg/code.go: %+v", entries)
	}
	put(t, ws, "pkg/code.go", "package pkg // changed\n", 0o644)
	if _, err := s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true}); err != nil {
		t.Fatal(err)
	}
	for rel, content := range secrets {
		if read(t, ws, rel) != content {
			t.Fatalf("the restore touched %s", rel)
		}
	}
}

func noise(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	rand.Read(b)
	return string(b)
}

// Over its quota the store drops the oldest checkpoints first and the contents only they held.
func TestQuotaPrunesOldestFirst(t *testing.T) {
	s, ws := open(t, Options{Quota: 100 << 10}), t.TempDir()
	var ids []int64
	var first string
	for i := range 6 {
		content := noise(t, 30<<10) // incompressible: each version costs ~30 KB
		if i == 0 {
			first = content
		}
		put(t, ws, "data.bin", content, 0o644)
		ids = append(ids, snap(t, s, ws, ReasonTurn).ID)
	}
	u, err := s.Usage()
	if err != nil {
		t.Fatal(err)
	}
	if u.Bytes > u.Quota {
		t.Fatalf("usage %d over quota %d", u.Bytes, u.Quota)
	}
	list, _ := s.List("s1")
	var kept []int64
	for _, c := range list {
		kept = append(kept, c.ID)
	}
	if len(kept) == 0 || len(kept) == len(ids) || !slices.Equal(kept, ids[len(ids)-len(kept):]) {
		t.Fatalf("kept %v of %v: the newest must stay, the oldest go", kept, ids)
	}
	if _, err := blob(s.db, hashOf([]byte(first))); errs.KindOf(err) != Missing {
		t.Fatal("the oldest content is still stored")
	}
	if _, err := s.Restore(kept[0], Request{SessionID: "s1"}, RestoreOptions{}); err != nil {
		t.Fatalf("a kept checkpoint must restore: %v", err)
	}
}

// Files above the size limit are recorded by hash only; a restore says it cannot bring them back.
func TestLargeFilesAreRecordedByHashOnly(t *testing.T) {
	s, ws := open(t, Options{MaxFileSize: 1024}), t.TempDir()
	put(t, ws, "big.bin", strings.Repeat("x", 4096), 0o644)
	put(t, ws, "small.txt", "small", 0o644)
	c := snap(t, s, ws, ReasonTurn)
	put(t, ws, "big.bin", strings.Repeat("y", 4096), 0o644)
	put(t, ws, "small.txt", "changed", 0o644)
	plan, err := s.PlanRestore(c.ID, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Unrestorable, []string{"big.bin"}) || len(plan.Changes) != 1 {
		t.Fatalf("plan %+v", plan)
	}
	if _, err := s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if read(t, ws, "small.txt") != "small" || read(t, ws, "big.bin") != strings.Repeat("y", 4096) {
		t.Fatal("restore of a store with a large file")
	}
}

// A damaged store restores nothing, rather than half the files.
func TestADamagedStoreRestoresNothing(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "a.txt", "a1", 0o644)
	put(t, ws, "b.txt", "b1", 0o644)
	c := snap(t, s, ws, ReasonTurn)
	put(t, ws, "a.txt", "a2", 0o644)
	put(t, ws, "b.txt", "b2", 0o644)
	if err := s.db.Exec("UPDATE blobs SET data = ? WHERE hash = ?", encoder.EncodeAll([]byte("other"), nil), hashOf([]byte("b1"))).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{}); errs.KindOf(err) != Missing {
		t.Fatalf("restore from a damaged store: %v", err)
	}
	if read(t, ws, "a.txt") != "a2" {
		t.Fatal("a damaged restore changed a file")
	}
}

// A restore never writes outside the workspace, even through a folder swapped for a link.
func TestRestoreStaysInsideTheWorkspace(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "sub/f.txt", "inside", 0o644)
	c := snap(t, s, ws, ReasonTurn)
	outside := t.TempDir()
	os.RemoveAll(filepath.Join(ws, "sub"))
	if err := os.Symlink(outside, filepath.Join(ws, "sub")); err != nil {
		t.Fatal(err)
	}
	s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true})
	if _, err := os.Stat(filepath.Join(outside, "f.txt")); err == nil {
		t.Fatal("the restore wrote through a link to outside the workspace")
	}
}

// A file created after the preview is not among the deletes the person saw: the restore is
// refused even though they confirmed, so no file is deleted unlisted.
func TestRestoreNeverDeletesAFileThePersonWasNotShown(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "a.txt", "a", 0o644)
	c := snap(t, s, ws, ReasonTurn)
	put(t, ws, "agent.txt", "made by the agent", 0o644)
	plan, err := s.PlanRestore(c.ID, RestoreOptions{})
	if err != nil || !slices.Equal(plan.Deletes, []string{"agent.txt"}) {
		t.Fatalf("plan %+v %v", plan, err)
	}
	put(t, ws, "mine.txt", "written by the person after the preview", 0o644)
	_, err = s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true, Seen: plan.Deletes})
	if errs.KindOf(err) != NeedsConfirmation {
		t.Fatalf("a delete the person did not see must refuse the restore: %v", err)
	}
	if read(t, ws, "mine.txt") == "" || read(t, ws, "agent.txt") == "" {
		t.Fatal("a refused restore deleted a file")
	}
	os.Remove(filepath.Join(ws, "mine.txt"))
	if _, err := s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{ConfirmDeletes: true, Seen: plan.Deletes}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, "agent.txt")); err == nil {
		t.Fatal("the listed delete did not happen")
	}
}

// A rewrite keeps the file's mode, sits between two checkpoints, and restoring the first undoes it.
func TestRewriteCanBeUndone(t *testing.T) {
	s, ws := open(t, Options{}), t.TempDir()
	put(t, ws, "run.sh", "#!/bin/sh\necho one\n", 0o755)
	done, err := s.Rewrite(Request{SessionID: "s1", Workspace: ws}, "run.sh", func(cur []byte, exists bool) ([]byte, error) {
		if !exists {
			t.Fatal("run.sh exists")
		}
		return []byte(strings.Replace(string(cur), "one", "two", 1)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(filepath.Join(ws, "run.sh")); read(t, ws, "run.sh") != "#!/bin/sh\necho two\n" || info.Mode().Perm() != 0o755 {
		t.Fatalf("rewrite: %q %v", read(t, ws, "run.sh"), info.Mode())
	}
	if done.Undo.Reason != ReasonBeforeReview || done.Result.Reason != ReasonReviewed {
		t.Fatalf("checkpoints around a rewrite: %+v", done)
	}
	if _, err := s.Restore(done.Undo.ID, Request{SessionID: "s1"}, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if read(t, ws, "run.sh") != "#!/bin/sh\necho one\n" {
		t.Fatal("the undo did not give the file back")
	}
	if err := os.Symlink("run.sh", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rewrite(Request{SessionID: "s1", Workspace: ws}, "link", func([]byte, bool) ([]byte, error) { return nil, nil }); errs.KindOf(err) != NotAFile {
		t.Fatalf("a link is not rewritten: %v", err)
	}
}

// A folder with more files than a snapshot walks is refused with a kind, not read for minutes.
func TestAFolderTooLargeIsRefused(t *testing.T) {
	s, ws := open(t, Options{MaxFiles: 3}), t.TempDir()
	for i := range 4 {
		put(t, ws, fmt.Sprintf("f%d", i), "x", 0o644)
	}
	if _, err := s.Snapshot(Request{SessionID: "s1", Workspace: ws, Reason: ReasonTurn}); errs.KindOf(err) != TooLarge {
		t.Fatalf("snapshot of a folder over the limit: %v", err)
	}
}

// Pruning may drop the newest checkpoint of another workspace; a later snapshot of that
// workspace must not name contents that went with it.
func TestPruningForgetsWhatTheDroppedCheckpointsHeld(t *testing.T) {
	s := open(t, Options{Quota: 100 << 10})
	a, b := t.TempDir(), t.TempDir()
	put(t, a, "keep.bin", noise(t, 30<<10), 0o644)
	snap(t, s, a, ReasonTurn)
	for range 5 {
		put(t, b, "data.bin", noise(t, 30<<10), 0o644)
		snap(t, s, b, ReasonTurn)
	}
	c := snap(t, s, a, ReasonTurn) // keep.bin did not change since a's dropped checkpoint
	put(t, a, "keep.bin", "changed", 0o644)
	if _, err := s.Restore(c.ID, Request{SessionID: "s1"}, RestoreOptions{}); err != nil {
		t.Fatalf("the newest checkpoint of a pruned workspace must restore: %v", err)
	}
}

// A staged change keeps both versions, and they survive pruning while it is kept.
func TestStagedChangesKeepBothVersions(t *testing.T) {
	s := open(t, Options{})
	st, err := s.Stage(Staged{SessionID: "s1", TurnID: "t", CallID: "c", Path: "a.txt"}, []byte("old\n"), []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, base, proposed, err := s.StagedChange(st.ID)
	if err != nil || got.Path != "a.txt" || string(base) != "old\n" || string(proposed) != "new\n" {
		t.Fatalf("%+v %q %q %v", got, base, proposed, err)
	}
	created, _ := s.Stage(Staged{SessionID: "s1", Path: "b.txt"}, nil, []byte("b"))
	if _, base, _, err := s.StagedChange(created.ID); err != nil || base != nil {
		t.Fatalf("a new file has no base: %q %v", base, err)
	}
	if _, _, _, err := s.StagedChange(999); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("unknown staged id: %v", err)
	}
}
