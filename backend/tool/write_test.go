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
