//go:build linux

package worktree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
)

// In a task's worktree, inside the sandbox, git add and git commit work; the repository's
// config, its hooks, another ref, the worktree's commondir and the shared objects are refused
// by the kernel. Once AgentDesk moves the task's objects over, the person's repository is whole
// and holds the commit on the task's branch.
func TestInATaskWorktreeGitCommitsAndNothingElseOfTheRepositoryChanges(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Skip("no namespaces here: a task's git folders are opened only inside its own root")
	}
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	gitIn(t, dir, "gc", "--quiet") // the start commit's objects in a pack, as in a real repository
	task := create(t, dir, "sandboxed-1", "In the sandbox", false)
	p := sandbox.Policy{Workspace: task.Path, TempDir: t.TempDir(),
		Task: &sandbox.TaskGit{GitDir: task.GitDir, Common: task.Common, Branch: task.Branch}}
	sh := func(script string) (string, error) {
		cmd, err := sandbox.Command(p, "/bin/sh", []string{"-c", script}, append(os.Environ(),
			"GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=a@example.com"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Dir = task.Path
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := sh("echo more >> app.go && git add app.go && git commit -q -m 'from the agent' && git log --oneline | head -1"); err != nil || !strings.Contains(out, "from the agent") {
		t.Fatalf("git add and commit in the task's worktree: %v\n%s", err, out)
	}
	packs, _ := filepath.Glob(filepath.Join(task.Common, "objects", "pack", "*.pack"))
	if len(packs) == 0 {
		t.Fatal("no pack to attack")
	}
	for _, script := range []string{
		"echo '[core]' >> " + filepath.Join(task.Common, "config"),
		"echo evil > " + filepath.Join(task.Common, "hooks", "pre-commit"),
		"git update-ref refs/heads/main HEAD",
		"echo /tmp > " + filepath.Join(task.GitDir, "commondir"),
		"rm -f " + packs[0],
		"echo 'gitdir: /tmp/elsewhere' > .git",
	} {
		if out, err := sh(script); err == nil {
			t.Errorf("%q was allowed: %s", script, out)
		}
	}
	if err := task.Migrate(); err != nil {
		t.Fatal(err)
	}
	fsck(t, dir)
	if got := gitIn(t, dir, "log", "--format=%s", "-1", task.Branch); got != "from the agent" {
		t.Fatalf("the task's branch: %q", got)
	}
	if got := gitIn(t, dir, "log", "--format=%s", "-1", "main"); got != "start" {
		t.Fatalf("main moved: %q", got)
	}
}

// A .env the person's setting copied into a task's worktree is hidden from a shell command there
// by the kernel, as it is in the person's folder: the masks are found in the worktree.
func TestACopiedSecretIsMaskedInTheWorktreeSandbox(t *testing.T) {
	if !sandbox.Status().Namespaces {
		t.Skip("no namespaces here: sensitive files are hidden only inside a command's own root")
	}
	dir := repo(t, map[string]string{"app.go": "package app\n"})
	write(t, filepath.Join(dir, ".env"), "TOKEN=1\n")
	task := create(t, dir, "masked-1", "Masked", false)
	if got := copyInto(t, task, ".env"); len(got.Files) != 1 {
		t.Fatalf("copied %+v", got)
	}
	masks, _ := policy.SensitiveMasks(policy.SensitiveList{}, task.Path)
	p := sandbox.Policy{Workspace: task.Path, TempDir: t.TempDir(), Hide: masks,
		Task: &sandbox.TaskGit{GitDir: task.GitDir, Common: task.Common, Branch: task.Branch}}
	cmd, err := sandbox.Command(p, "/bin/sh", []string{"-c", "cat .env"}, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = task.Path
	// A masked file reads as /dev/null: empty.
	if out, _ := cmd.CombinedOutput(); strings.Contains(string(out), "TOKEN") {
		t.Fatalf("the copied .env was readable:\n%s", out)
	}
}
