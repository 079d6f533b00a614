package tool

import (
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

func TestReadTextIsVerbatimAndPaged(t *testing.T) {
	ws := t.TempDir()
	path := filepath.Join(ws, "a.txt")
	os.WriteFile(path, []byte("one\ntwo\r\nthree\nfour"), 0o644)
	for _, c := range []struct {
		line, limit int
		want        string
	}{
		{0, 0, "one\ntwo\r\nthree\nfour"},
		{2, 0, "two\r\nthree\nfour"},
		{2, 2, "two\r\nthree\n"},
		{4, 5, "four"},
		{9, 1, ""},
	} {
		got, err := ReadText(Env{Workspace: ws}, path, c.line, c.limit)
		if err != nil || got != c.want {
			t.Errorf("line %d limit %d: %q %v, want %q", c.line, c.limit, got, err, c.want)
		}
	}
	os.WriteFile(filepath.Join(ws, "bin"), []byte("a\x00b"), 0o644)
	if _, err := ReadText(Env{Workspace: ws}, filepath.Join(ws, "bin"), 0, 0); errs.KindOf(err) != BinaryFile {
		t.Errorf("binary: %v", err)
	}
	if _, err := ReadText(Env{Workspace: ws}, ws, 0, 0); errs.KindOf(err) != NotAFile {
		t.Errorf("folder: %v", err)
	}
	other := policy.Target{Resolved: true, Path: filepath.Join(ws, "elsewhere")}
	if _, err := ReadText(Env{Workspace: ws, Target: &other}, path, 0, 0); errs.KindOf(err) != TargetChanged {
		t.Errorf("a path that resolves elsewhere than approved: %v", err)
	}
}
