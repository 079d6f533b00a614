package tool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/mode"
)

// editorWrites stands in for an editor that writes files itself: it keeps what it was given.
type editorWrites struct {
	paths, contents []string
	err             error
}

func (e *editorWrites) WriteTextFile(_ context.Context, path, content string) error {
	e.paths, e.contents = append(e.paths, path), append(e.contents, content)
	return e.err
}

// With a FileWriter, a write's and an edit's new content goes to it, at the path under the
// workspace, and the disk is left for the editor to change; its failure is the call's.
func TestWritesAndEditsGoThroughTheFileWriter(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "alpha\nbeta\n"})
	w := &editorWrites{}
	env := Env{Workspace: ws, Files: w}
	res := mustRun(t, mode.ToolEdit, env, editInputOf(t, "a.txt", "beta", "BETA"))
	if res.IsError || res.Output != "Edited a.txt: replaced 1 occurrence starting at line 2." {
		t.Fatalf("edit: %+v", res)
	}
	mustRun(t, mode.ToolWrite, env, jsonInput(t, map[string]string{"path": "sub/new.txt", "content": "new\n"}))
	want := []string{filepath.Join(ws, "a.txt"), filepath.Join(ws, "sub", "new.txt")}
	if len(w.paths) != 2 || w.paths[0] != want[0] || w.paths[1] != want[1] {
		t.Fatalf("paths %q, want %q", w.paths, want)
	}
	if w.contents[0] != "alpha\nBETA\n" || w.contents[1] != "new\n" {
		t.Fatalf("contents %q", w.contents)
	}
	if got := readBack(t, filepath.Join(ws, "a.txt")); got != "alpha\nbeta\n" {
		t.Fatalf("the disk is the editor's to change: %q", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub", "new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no file written to disk: %v", err)
	}
	w.err = errors.New("buffer is read-only")
	_, err := run(t, mode.ToolEdit, env, editInputOf(t, "a.txt", "beta", "BETA"))
	wantKind(t, err, ToolFailed)
}
