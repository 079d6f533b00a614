package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/workspace"
)

// The listing is folder names under an absolute path: no file, no hidden folder unless asked,
// nothing of any file's contents; a folder the rule refuses is listed with its reason.
func TestFoldersListNamesOnly(t *testing.T) {
	svc := newServices(t)
	dir := t.TempDir()
	for _, d := range []string{"b", "A", ".hidden"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("token"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "b"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	f := &Folders{svc}
	got, err := f.List(FolderListRequest{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range got.Folders {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "A,b,link" || got.Path != dir || got.Parent != filepath.Dir(dir) || got.Refusal != "" {
		t.Fatalf("listing: %+v", got)
	}
	if hidden, _ := f.List(FolderListRequest{Path: dir, Hidden: true}); len(hidden.Folders) != 4 {
		t.Fatalf("with hidden: %+v", hidden.Folders)
	}
	root, err := f.List(FolderListRequest{Path: "/"})
	if err != nil || root.Refusal != string(workspace.SystemFolder) || !strings.Contains(root.Reason, "system folder") || root.Parent != "" {
		t.Fatalf("root: %+v %v", root, err)
	}
	if _, err := f.List(FolderListRequest{Path: "relative/x"}); err == nil || !strings.Contains(err.Error(), string(workspace.Relative)) {
		t.Fatalf("relative: %v", err)
	}
	if _, err := f.List(FolderListRequest{Path: filepath.Join(dir, "secret.txt")}); err == nil || !strings.Contains(err.Error(), string(workspace.NotFound)) {
		t.Fatalf("a file: %v", err)
	}
}

// Recent folders are the workspaces of sessions, most recent first, without the ones now gone.
func TestFoldersRecentMostRecentFirst(t *testing.T) {
	svc := newServices(t)
	a, b, gone := t.TempDir(), t.TempDir(), t.TempDir()
	for _, ws := range []string{gone, a, b, a} {
		if _, err := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: ws}); err != nil {
			t.Fatal(err)
		}
	}
	os.RemoveAll(gone)
	got, err := (&Folders{svc}).Recent()
	if err != nil || strings.Join(got.Folders, ",") != a+","+b {
		t.Fatalf("recent %v %v, want [%s %s]", got.Folders, err, a, b)
	}
	if _, err := (&Folders{svc}).Pick(); err == nil || !strings.Contains(err.Error(), string(PickerUnavailable)) {
		t.Fatalf("no native dialog outside the window: %v", err)
	}
}

// The folder AgentDesk was opened on comes first among the recent ones, once.
func TestTheLaunchFolderIsOfferedFirst(t *testing.T) {
	svc := newServices(t)
	launch := t.TempDir()
	svc.Info.LaunchFolder = launch
	if _, err := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: launch}); err != nil {
		t.Fatal(err)
	}
	got, err := (&Folders{svc}).Recent()
	if err != nil || len(got.Folders) != 1 || got.Folders[0] != launch {
		t.Fatalf("recent %+v, %v", got, err)
	}
}
