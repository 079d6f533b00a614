package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

func copyInto(t *testing.T, task Task, globs ...string) Copied {
	t.Helper()
	got, err := CopyUntracked(context.Background(), task, globs, Guard{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// The globs pick untracked and ignored files of the person's folder, at any depth as the
// sensitive list reads them; other untracked files stay behind, and an executable stays one.
func TestCopyTakesTheUntrackedFilesTheGlobsName(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n", ".gitignore": "config/local.yaml\n"})
	write(t, filepath.Join(dir, "config", "local.yaml"), "port: 1\n")
	write(t, filepath.Join(dir, "tools", "run.local"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(dir, "tools", "run.local"), 0o755)
	write(t, filepath.Join(dir, "scratch.txt"), "not asked for\n")
	task := create(t, dir, "copy-1", "Copy", false)
	got := copyInto(t, task, "config/local.yaml", "*.local")
	if want := []string{"config/local.yaml", "tools/run.local"}; !reflect.DeepEqual(got.Files, want) || got.Skipped != nil {
		t.Fatalf("copied %+v, want %v", got, want)
	}
	if read(t, filepath.Join(task.Path, "config", "local.yaml")) != "port: 1\n" || exists(filepath.Join(task.Path, "scratch.txt")) {
		t.Fatal("the worktree does not hold exactly what was named")
	}
	if info, _ := os.Stat(filepath.Join(task.Path, "tools", "run.local")); info.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", info.Mode())
	}
}

// A link is never followed, whether it is the file or a folder on its way: a link in the
// repository could otherwise carry a file from anywhere on the machine into the worktree.
func TestCopySkipsLinks(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.local"), "from outside\n")
	if err := os.Symlink(filepath.Join(outside, "secret.local"), filepath.Join(dir, "a.local")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	task := create(t, dir, "copy-2", "Links", false)
	got := copyInto(t, task, "*.local", "linked/**")
	if len(got.Files) != 0 || !reflect.DeepEqual(got.Skipped, []Skipped{{Path: "a.local", Reason: SkipLink}, {Path: "linked", Reason: SkipLink}}) {
		t.Fatalf("copied %+v", got)
	}
	if exists(filepath.Join(task.Path, "a.local")) || exists(filepath.Join(task.Path, "linked")) {
		t.Fatal("a link reached the worktree")
	}
}

// A secret is copied only when the person's own setting names it: ".env" copies .env, while a
// glob that merely sweeps it along ("*") does not; one the list or a deny rule names by its
// absolute path in the person's folder never is (that entry would not cover the copy).
func TestCopyTakesASecretOnlyWhereTheSettingNamesIt(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n", ".gitignore": ".env\n"})
	write(t, filepath.Join(dir, ".env"), "TOKEN=1\n")
	write(t, filepath.Join(dir, "notes.md"), "notes\n")
	task := create(t, dir, "copy-3", "Secrets", false)
	got := copyInto(t, task, "*")
	if !reflect.DeepEqual(got.Files, []string{"notes.md"}) || !reflect.DeepEqual(got.Skipped, []Skipped{{Path: ".env", Reason: SkipSensitive}}) {
		t.Fatalf("a broad glob: %+v", got)
	}
	byPath := Guard{Sensitive: policy.NewSensitiveList([]string{filepath.Join(dir, "notes.md")})}
	if got, err := CopyUntracked(context.Background(), create(t, dir, "copy-7", "By path", false), []string{"notes.md"}, byPath); err != nil ||
		len(got.Files) != 0 || len(got.Skipped) != 1 || got.Skipped[0].Reason != SkipSensitive {
		t.Fatalf("a file an absolute entry covers: %+v %v", got, err)
	}
	denied := Guard{Rules: []policy.Rule{{Effect: policy.Deny, Kind: policy.KindRead, Path: filepath.Join(dir, "*.md")}}}
	if got, err := CopyUntracked(context.Background(), create(t, dir, "copy-8", "Denied", false), []string{"notes.md"}, denied); err != nil ||
		len(got.Files) != 0 || len(got.Skipped) != 1 || got.Skipped[0].Reason != SkipDenied {
		t.Fatalf("a file an absolute deny rule covers: %+v %v", got, err)
	}
	other := create(t, dir, "copy-4", "Secrets named", false)
	if got := copyInto(t, other, ".env"); !reflect.DeepEqual(got.Files, []string{".env"}) {
		t.Fatalf("named: %+v", got)
	}
	if read(t, filepath.Join(other.Path, ".env")) != "TOKEN=1\n" {
		t.Fatal(".env not copied")
	}
}

// A copied secret stays one in the worktree: the sensitive list is read relative to the
// workspace, which the worktree is, so the sandbox hides the file and the gate asks about it.
func TestACopiedSecretIsStillSensitiveInTheWorktree(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	write(t, filepath.Join(dir, ".env"), "TOKEN=1\n")
	task := create(t, dir, "copy-5", "Still secret", false)
	copyInto(t, task, ".env")
	var list policy.SensitiveList
	masks, complete := policy.SensitiveMasks(list, task.Path)
	if !complete || !reflect.DeepEqual(masks, []string{filepath.Join(task.Path, ".env")}) {
		t.Fatalf("masks %v", masks)
	}
	for _, call := range []policy.Call{{Kind: policy.KindRead, Path: ".env"}, {Kind: policy.KindBash, Command: "cat .env"}} {
		resolved, err := policy.Resolve(policy.Workspace{Root: task.Path}, call)
		if err != nil {
			t.Fatal(err)
		}
		in := policy.Input{Mode: mode.ModeExecute, Permission: policy.Auto, Sensitive: list, SensitiveMasked: true, Sandboxed: true, Call: resolved}
		if v := policy.Evaluate(in); v.Decision != policy.DecideAsk || v.Code != policy.SensitivePath {
			t.Fatalf("%+v on the copied .env: %+v", call, v)
		}
	}
}

// Sizes are bounded: a file over CopyMaxFileSize is skipped and said to be, and past
// CopyMaxFiles the rest are counted, not copied.
func TestCopyIsBounded(t *testing.T) {
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	big := filepath.Join(dir, "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, CopyMaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	for i := range CopyMaxFiles + 2 {
		write(t, filepath.Join(dir, "gen", fmt.Sprintf("f%04d.out", i)), "x")
	}
	task := create(t, dir, "copy-6", "Bounded", false)
	got := copyInto(t, task, "big.bin", "gen/")
	if !reflect.DeepEqual(got.Skipped, []Skipped{{Path: "big.bin", Reason: SkipTooLarge}}) {
		t.Fatalf("skipped %+v", got.Skipped)
	}
	if len(got.Files) != CopyMaxFiles-1 || got.LeftOver != 3 {
		t.Fatalf("%d copied, %d left over", len(got.Files), got.LeftOver)
	}
}
