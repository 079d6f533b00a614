package tool

import (
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/mode"
)

func TestWriteCreatesParentsAndReportsBytes(t *testing.T) {
	ws := t.TempDir()
	res := mustRun(t, mode.ToolWrite, Env{Workspace: ws}, `{"path":"a/b/c.txt","content":"héllo\n"}`)
	if res.IsError || res.Output != "Created a/b/c.txt: wrote 7 bytes." {
		t.Fatalf("got %+v", res)
	}
	p := filepath.Join(ws, "a", "b", "c.txt")
	if got := readBack(t, p); got != "héllo\n" {
		t.Fatalf("file %q", got)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != newFileMode {
		t.Fatalf("mode %v", info.Mode())
	}
	mustRun(t, mode.ToolWrite, Env{Workspace: ws}, `{"path":"empty","content":""}`)
	if got := readBack(t, filepath.Join(ws, "empty")); got != "" {
		t.Fatalf("empty %q", got)
	}
}

// TestWriteIsAtomic checks the rename: the replaced file is a new inode (a reader holding the old
// one never sees half a file), the mode is kept and no temporary file is left.
func TestWriteIsAtomic(t *testing.T) {
	ws := workspace(t, map[string]string{"conf.ini": "old"})
	p := filepath.Join(ws, "conf.ini")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	res := mustRun(t, mode.ToolWrite, Env{Workspace: ws}, `{"path":"conf.ini","content":"new content"}`)
	if res.Output != "Replaced conf.ini: wrote 11 bytes." {
		t.Fatalf("got %q", res.Output)
	}
	after, _ := os.Stat(p)
	if os.SameFile(before, after) {
		t.Fatal("the file was rewritten in place, not renamed into place")
	}
	if after.Mode().Perm() != 0o600 || readBack(t, p) != "new content" {
		t.Fatalf("mode %v, content %q", after.Mode(), readBack(t, p))
	}
	entries, _ := os.ReadDir(ws)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestWriteErrors(t *testing.T) {
	ws := workspace(t, map[string]string{"dir/x": "", "file": ""})
	_, err := run(t, mode.ToolWrite, Env{Workspace: ws}, `{"path":"dir","content":"x"}`)
	wantKind(t, err, NotAFile)
	_, err = run(t, mode.ToolWrite, Env{Workspace: ws}, `{"path":"file/child","content":"x"}`)
	wantKind(t, err, ToolFailed)
}

func TestWriteThroughADanglingSymlinkCreatesTheTarget(t *testing.T) {
	ws := t.TempDir()
	if err := os.Symlink("sub/target.txt", filepath.Join(ws, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	mustRun(t, mode.ToolWrite, Env{Workspace: ws}, `{"path":"link","content":"via link"}`)
	if got := readBack(t, filepath.Join(ws, "sub", "target.txt")); got != "via link" {
		t.Fatalf("target %q", got)
	}
	if info, _ := os.Lstat(filepath.Join(ws, "link")); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
}

func TestWriteRefusesAFileSwappedForASymlinkAfterApproval(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "inside\n"})
	secret := outsideFile(t, "secret\n")
	target := approve(t, ws, "a.txt")
	swapForSymlink(t, filepath.Join(ws, "a.txt"), secret)
	_, err := run(t, mode.ToolWrite, Env{Workspace: ws, Target: target}, `{"path":"a.txt","content":"pwned"}`)
	wantChanged(t, err, target.Path, secret)
	if got := readBack(t, secret); got != "secret\n" {
		t.Fatalf("the outside file was written: %q", got)
	}
}

func TestWriteRefusesAParentFolderSwappedForASymlink(t *testing.T) {
	ws := workspace(t, map[string]string{"sub/keep.txt": ""})
	outside := filepath.Dir(outsideFile(t, ""))
	target := approve(t, ws, "sub/new.txt")
	swapForSymlink(t, filepath.Join(ws, "sub"), outside)
	_, err := run(t, mode.ToolWrite, Env{Workspace: ws, Target: target}, `{"path":"sub/new.txt","content":"pwned"}`)
	wantChanged(t, err, target.Path, filepath.Join(outside, "new.txt"))
	if _, err := os.Lstat(filepath.Join(outside, "new.txt")); err == nil {
		t.Fatal("the file was created outside the workspace")
	}
}

// TestWriteThroughTheRootCannotBeLedOut swaps the parent folder after the tool's own check: the
// folder creation, the temp file and the rename all go through os.Root, which refuses.
func TestWriteThroughTheRootCannotBeLedOut(t *testing.T) {
	ws := workspace(t, map[string]string{"sub/keep.txt": ""})
	outside := filepath.Dir(outsideFile(t, ""))
	at, err := locate(mode.ToolWrite, Env{Workspace: ws, Target: approve(t, ws, "sub/new.txt")}, "sub/new.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer at.close()
	swapForSymlink(t, filepath.Join(ws, "sub"), outside)
	err = at.writeAtomic([]byte("pwned"), newFileMode)
	wantChanged(t, err, at.abs, filepath.Join(outside, "new.txt"))
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("something was written outside: %v", entries)
	}
}

func TestWriteWithAnApprovedTarget(t *testing.T) {
	ws := workspace(t, map[string]string{"old.txt": "old"})
	for _, p := range []string{"old.txt", "new/dir/f.txt"} {
		env := Env{Workspace: ws, Target: approve(t, ws, p)}
		mustRun(t, mode.ToolWrite, env, jsonInput(t, map[string]string{"path": p, "content": "fresh"}))
		if got := readBack(t, filepath.Join(ws, filepath.FromSlash(p))); got != "fresh" {
			t.Fatalf("%s: %q", p, got)
		}
	}
	entries, _ := os.ReadDir(ws)
	if len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestWriteAnApprovedPathOutsideTheWorkspace(t *testing.T) {
	ws := t.TempDir()
	secret := outsideFile(t, "before")
	if err := os.Chmod(secret, 0o640); err != nil {
		t.Fatal(err)
	}
	env := Env{Workspace: ws, Target: approve(t, ws, secret)}
	res := mustRun(t, mode.ToolWrite, env, jsonInput(t, map[string]string{"path": secret, "content": "after"}))
	if res.Output != "Replaced "+secret+": wrote 5 bytes." || readBack(t, secret) != "after" {
		t.Fatalf("got %q, file %q", res.Output, readBack(t, secret))
	}
	if info, _ := os.Stat(secret); info.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", info.Mode())
	}
}
