package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A launcher starts `agentdesk FOLDER` (the .desktop file's %f): the window's new task starts
// in that folder, flags may stand on either side, and what is not a folder is refused before
// any window opens.
func TestDesktopTakesAFolder(t *testing.T) {
	dir, data := t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o600)
	open := func(args ...string) (int, string, string) {
		var folder string
		var errOut bytes.Buffer
		code := Main(args, Env{Stdout: &bytes.Buffer{}, Stderr: &errOut, Getenv: func(string) string { return "" },
			Desktop: func(c *Context) error { folder = c.Folder; return nil }})
		return code, folder, errOut.String()
	}
	for _, args := range [][]string{{dir, "--data-dir", data}, {"--data-dir", data, dir}} {
		if code, folder, errOut := open(args...); code != ExitOK || folder != dir {
			t.Errorf("%v: exit %d, folder %q, stderr %q", args, code, folder, errOut)
		}
	}
	if code, folder, _ := open("--data-dir", data); code != ExitOK || folder != "" {
		t.Errorf("no folder: exit %d, folder %q", code, folder)
	}
	if code, _, errOut := open("--data-dir", data, file); code != ExitUsage || !strings.Contains(errOut, file) {
		t.Errorf("a file: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := open("--data-dir", data, dir, dir); code != ExitUsage || !strings.Contains(errOut, dir) {
		t.Errorf("two folders: exit %d, stderr %q", code, errOut)
	}
}
