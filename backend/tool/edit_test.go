package tool

import (
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/mode"
)

func editInputOf(t *testing.T, path, old, new string) string {
	return jsonInput(t, map[string]string{"path": path, "old_string": old, "new_string": new})
}

func TestEditReplacesTheOneMatchAndKeepsTheMode(t *testing.T) {
	ws := workspace(t, map[string]string{"run.sh": "#!/bin/sh\necho old\nexit 0\n"})
	p := filepath.Join(ws, "run.sh")
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, mode.ToolEdit, Env{Workspace: ws}, editInputOf(t, "run.sh", "echo old", "echo new\necho more"))
	if res.IsError || res.Output != "Edited run.sh: replaced 1 occurrence starting at line 2." {
		t.Fatalf("got %+v", res)
	}
	if got := readBack(t, p); got != "#!/bin/sh\necho new\necho more\nexit 0\n" {
		t.Fatalf("file %q", got)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o751 {
		t.Fatalf("mode %v", info.Mode())
	}
	mustRun(t, mode.ToolEdit, Env{Workspace: ws}, editInputOf(t, "run.sh", "echo more\n", ""))
	if got := readBack(t, p); got != "#!/bin/sh\necho new\nexit 0\n" {
		t.Fatalf("deleting: %q", got)
	}
}

func TestEditNeedsExactlyOneMatch(t *testing.T) {
	ws := workspace(t, map[string]string{"f": "a := 1\nb := 1\naaa\n"})
	env := Env{Workspace: ws}
	_, err := run(t, mode.ToolEdit, env, editInputOf(t, "f", "c := 1", "c := 2"))
	wantKind(t, err, EditNoMatch)
	_, err = run(t, mode.ToolEdit, env, editInputOf(t, "f", " := 1", " := 2"))
	if e := wantKind(t, err, EditManyMatches); e.Args["Count"] != 2 {
		t.Fatalf("count %v", e.Args["Count"])
	}
	// Overlapping occurrences make the edit ambiguous too.
	_, err = run(t, mode.ToolEdit, env, editInputOf(t, "f", "aa", "x"))
	wantKind(t, err, EditManyMatches)
	if got := readBack(t, filepath.Join(ws, "f")); got != "a := 1\nb := 1\naaa\n" {
		t.Fatalf("a failed edit changed the file: %q", got)
	}
	_, err = get(t, mode.ToolEdit).Describe([]byte(editInputOf(t, "f", "same", "same")))
	wantKind(t, err, EditNoChange)
}

func TestEditErrors(t *testing.T) {
	ws := workspace(t, map[string]string{"bin": "x\x00y", "dir/f": ""})
	env := Env{Workspace: ws}
	_, err := run(t, mode.ToolEdit, env, editInputOf(t, "missing.go", "a", "b"))
	wantKind(t, err, FileNotFound)
	_, err = run(t, mode.ToolEdit, env, editInputOf(t, "bin", "x", "z"))
	wantKind(t, err, BinaryFile)
	_, err = run(t, mode.ToolEdit, env, editInputOf(t, "dir", "x", "z"))
	wantKind(t, err, NotAFile)
}

func TestEditThroughASymlinkChangesTheTarget(t *testing.T) {
	ws := workspace(t, map[string]string{"real.txt": "one\n"})
	link := filepath.Join(ws, "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Skip("no symlinks:", err)
	}
	mustRun(t, mode.ToolEdit, Env{Workspace: ws}, editInputOf(t, "link.txt", "one", "two"))
	if got := readBack(t, filepath.Join(ws, "real.txt")); got != "two\n" {
		t.Fatalf("target %q", got)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
}

func TestEditRefusesAFileSwappedForASymlinkAfterApproval(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "inside secret\n"})
	secret := outsideFile(t, "secret\n")
	target := approve(t, ws, "a.txt")
	swapForSymlink(t, filepath.Join(ws, "a.txt"), secret)
	_, err := run(t, mode.ToolEdit, Env{Workspace: ws, Target: target}, editInputOf(t, "a.txt", "secret", "pwned"))
	wantChanged(t, err, target.Path, secret)
	if got := readBack(t, secret); got != "secret\n" {
		t.Fatalf("the outside file was edited: %q", got)
	}
}

// TestEditThroughTheRootCannotBeLedOut swaps the file after the tool's own check.
func TestEditThroughTheRootCannotBeLedOut(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "inside secret\n"})
	secret := outsideFile(t, "secret\n")
	at, err := locate(mode.ToolEdit, Env{Workspace: ws, Target: approve(t, ws, "a.txt")}, "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer at.close()
	swapForSymlink(t, filepath.Join(ws, "a.txt"), secret)
	_, _, err = readForEdit(at)
	wantChanged(t, err, at.abs, secret)
	if got := readBack(t, secret); got != "secret\n" {
		t.Fatalf("the outside file changed: %q", got)
	}
}

func TestEditWithAnApprovedTarget(t *testing.T) {
	ws := workspace(t, map[string]string{"real.txt": "one\n"})
	if err := os.Symlink("real.txt", filepath.Join(ws, "link.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	for _, c := range []struct{ path, old, new string }{{"real.txt", "one", "two"}, {"link.txt", "two", "three"}} {
		env := Env{Workspace: ws, Target: approve(t, ws, c.path)}
		mustRun(t, mode.ToolEdit, env, editInputOf(t, c.path, c.old, c.new))
	}
	if got := readBack(t, filepath.Join(ws, "real.txt")); got != "three\n" {
		t.Fatalf("target %q", got)
	}
}

func TestEditAnApprovedPathOutsideTheWorkspace(t *testing.T) {
	ws := t.TempDir()
	secret := outsideFile(t, "one\n")
	env := Env{Workspace: ws, Target: approve(t, ws, secret)}
	mustRun(t, mode.ToolEdit, env, editInputOf(t, secret, "one", "two"))
	if got := readBack(t, secret); got != "two\n" {
		t.Fatalf("file %q", got)
	}
}
