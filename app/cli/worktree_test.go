package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/sandbox"
)

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=P", "-c", "user.email=p@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// startRepo is a repository with one commit of app.go, in a folder of its own.
func startRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "app.go"), []byte("package app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, repo, "init", "--quiet", "--initial-branch=main")
	gitOut(t, repo, "add", "--all")
	gitOut(t, repo, "commit", "--quiet", "-m", "start")
	return repo
}

// onlySession is the one session of the data folder: its id and folder.
func onlySession(t *testing.T, data string) (id, workspace string) {
	t.Helper()
	var list []struct{ ID, Workspace string }
	_, raw, _ := run(t, nil, "sessions", "list", "--json", "--data-dir", data)
	if err := json.Unmarshal([]byte(raw), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %s", err, raw)
	}
	return list[0].ID, list[0].Workspace
}

// A task run with --worktree commits in its own worktree from inside the sandbox and leaves
// the person's folder alone; removing it keeps its work, the restore brings it back, apply
// writes it into the person's folder, and a removal after that keeps nothing. The person's
// repository passes git fsck after every step.
func TestATaskInItsOwnWorktreeFromTheCommandLine(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Skip("no namespaces here: git in a task's worktree runs only inside its own root")
	}
	repo, data := startRepo(t), t.TempDir()
	fsck := func(step string) {
		t.Helper()
		if out, err := exec.Command("git", "-C", repo, "fsck", "--strict", "--no-progress").CombinedOutput(); err != nil {
			t.Fatalf("after %s, git fsck: %v\n%s", step, err, out)
		}
	}
	script := writeScript(t, `{"responses":[
		{"text":"Committing.","tool_calls":[{"name":"bash","input":{"command":"echo agent >> app.go && git add app.go && git -c user.name=A -c user.email=a@example.com commit -qm 'from the agent' && echo wip > wip.txt"}}]},
		{"text":"Done."}]}`)
	code, out, errOut := run(t, nil, "run", "--worktree", "--workspace", repo, "--permission", "full", "--script", script,
		"--data-dir", data, "commit a change")
	if code != 0 {
		t.Fatalf("run: %d %s %s", code, out, errOut)
	}
	fsck("the run")
	t.Logf("run: %s", out)
	id, ws := onlySession(t, data)
	if !strings.HasPrefix(ws, filepath.Clean(data)+"-worktrees") {
		t.Fatalf("the session runs in %s", ws)
	}
	branch := gitOut(t, ws, "rev-parse", "--abbrev-ref", "HEAD")
	if got := gitOut(t, repo, "log", "--format=%s", "-1", branch); got != "from the agent" {
		t.Fatalf("the task's branch %s: %q", branch, got)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "app.go")); string(got) != "package app\n" {
		t.Fatalf("the person's folder changed: %q", got)
	}

	step := func(name string, args ...string) string {
		t.Helper()
		code, out, errOut := run(t, nil, append(append([]string{"sessions"}, args...), "--data-dir", data)...)
		if code != 0 {
			t.Fatalf("%s: %d %s %s", name, code, out, errOut)
		}
		fsck(name)
		return out
	}
	var idle struct{ ID string }
	if err := json.Unmarshal([]byte(step("create", "create", "--worktree", "--workspace", repo, "--title", "Idle", "--json")), &idle); err != nil {
		t.Fatal(err)
	}
	var pruned struct {
		Removed []string
		Left    map[string][]string
	}
	if err := json.Unmarshal([]byte(step("prune-worktrees", "prune-worktrees", "--json")), &pruned); err != nil {
		t.Fatal(err)
	}
	if len(pruned.Removed) != 1 || pruned.Removed[0] != idle.ID || len(pruned.Left[id]) != 2 {
		t.Fatalf("prune: %+v (idle %s, task %s)", pruned, idle.ID, id)
	}
	if out := step("remove-worktree", "remove-worktree", id); !strings.Contains(out, "app.go") || !strings.Contains(out, "wip.txt") {
		t.Fatalf("remove kept: %s", out)
	}
	if _, err := os.Stat(ws); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	step("restore-worktree", "restore-worktree", id)
	if got, _ := os.ReadFile(filepath.Join(ws, "wip.txt")); string(got) != "wip\n" {
		t.Fatalf("restored wip.txt: %q", got)
	}
	step("apply", "apply", id)
	if got, _ := os.ReadFile(filepath.Join(repo, "app.go")); string(got) != "package app\nagent\n" {
		t.Fatalf("applied app.go: %q", got)
	}
	if out := step("remove-worktree after apply", "remove-worktree", id); !strings.Contains(out, "all its work had reached") {
		t.Fatalf("remove after apply: %s", out)
	}
}

// A handoff moves a task into the person's folder (its changes applied there, its copy gone) and
// back into a copy of its own (the folder's uncommitted changes carried along).
func TestHandOffMovesATaskBetweenItsWorktreeAndTheFolder(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Skip("no namespaces here")
	}
	repo, data := startRepo(t), t.TempDir()
	script := writeScript(t, `{"responses":[
		{"tool_calls":[{"name":"bash","input":{"command":"echo task >> app.go"}}]},
		{"text":"Done."}]}`)
	if code, out, errOut := run(t, nil, "run", "--worktree", "--workspace", repo, "--permission", "full", "--script", script,
		"--data-dir", data, "edit app.go"); code != 0 {
		t.Fatalf("run: %d %s %s", code, out, errOut)
	}
	id, ws := onlySession(t, data)
	handoff := func() string {
		t.Helper()
		code, out, errOut := run(t, nil, "sessions", "handoff", id, "--json", "--data-dir", data)
		if code != 0 {
			t.Fatalf("handoff: %d %s %s", code, out, errOut)
		}
		var v struct{ Workspace string }
		json.Unmarshal([]byte(out), &v)
		gitOut(t, repo, "fsck", "--strict", "--no-progress")
		return v.Workspace
	}
	if got := handoff(); got != repo {
		t.Fatalf("into the folder: the session works in %s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "app.go")); string(got) != "package app\ntask\n" {
		t.Fatalf("the task's change in the folder: %q", got)
	}
	if _, err := os.Stat(ws); !os.IsNotExist(err) {
		t.Fatalf("the copy is still there: %v", err)
	}
	back := handoff()
	if back == repo || !strings.HasPrefix(back, filepath.Clean(data)+"-worktrees") {
		t.Fatalf("back into a copy: %s", back)
	}
	if got, _ := os.ReadFile(filepath.Join(back, "app.go")); string(got) != "package app\ntask\n" {
		t.Fatalf("the folder's uncommitted change carried: %q", got)
	}
}

// From the command line a task's changes come back file by file and hunk by hunk: `changes`
// lists them with their state, `apply --file --hunks` writes only those, and `discard` undoes
// one in the task's copy; the person's own edit in the same file survives.
func TestATasksChangesComeBackHunkByHunkFromTheCommandLine(t *testing.T) {
	repo, data := startRepo(t), t.TempDir()
	numbered := func(edit map[int]string) []byte {
		var b strings.Builder
		for i := 1; i <= 30; i++ {
			if s, ok := edit[i]; ok {
				b.WriteString(s + "\n")
			} else {
				b.WriteString("line " + strconv.Itoa(i) + "\n")
			}
		}
		return []byte(b.String())
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(repo, "list.txt"), numbered(nil), 0o644))
	gitOut(t, repo, "add", "list.txt")
	gitOut(t, repo, "commit", "--quiet", "-m", "list")
	code, out, errOut := run(t, nil, "sessions", "create", "--worktree", "--workspace", repo, "--json", "--data-dir", data)
	var task struct{ ID, Workspace string }
	if code != 0 || json.Unmarshal([]byte(out), &task) != nil {
		t.Fatalf("create: %d %s %s", code, out, errOut)
	}
	must(os.WriteFile(filepath.Join(task.Workspace, "list.txt"), numbered(map[int]string{2: "two", 15: "fifteen", 28: "twenty-eight"}), 0o644))
	must(os.WriteFile(filepath.Join(repo, "list.txt"), numbered(map[int]string{28: "the person's 28"}), 0o644))

	sessions := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, nil, append(append([]string{"sessions"}, args...), "--data-dir", data)...)
		if code != 0 {
			t.Fatalf("%v: %d %s %s", args, code, out, errOut)
		}
		return out
	}
	var changes struct {
		Files []struct {
			Path       string
			HunkStates []string
		}
	}
	must(json.Unmarshal([]byte(sessions("changes", task.ID, "--json")), &changes))
	if len(changes.Files) != 1 || strings.Join(changes.Files[0].HunkStates, ",") != "pending,pending,conflict" {
		t.Fatalf("changes: %+v", changes)
	}
	if out := sessions("changes", task.ID); !strings.Contains(out, "hunk 3: conflict") {
		t.Fatalf("changes as text: %s", out)
	}
	sessions("apply", task.ID, "--file", "list.txt", "--hunks", "2")
	sessions("discard", task.ID, "--file", "list.txt", "--hunks", "1")
	if got, _ := os.ReadFile(filepath.Join(repo, "list.txt")); string(got) != string(numbered(map[int]string{15: "fifteen", 28: "the person's 28"})) {
		t.Fatalf("the person's list.txt:\n%s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(task.Workspace, "list.txt")); string(got) != string(numbered(map[int]string{15: "fifteen", 28: "twenty-eight"})) {
		t.Fatalf("the task's list.txt:\n%s", got)
	}
	if code, _, errOut := run(t, nil, "sessions", "apply", task.ID, "--file", "list.txt", "--hunks", "x", "--data-dir", data); code == 0 || !strings.Contains(errOut, "hunks") {
		t.Fatalf("a bad --hunks: %d %s", code, errOut)
	}
}
