package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"agentdesk/backend/errs"
)

// NotClean refuses a merge into a folder with uncommitted changes to tracked files: the merge
// would mix the person's unfinished work into the task's.
const NotClean errs.Kind = "WORKTREE_FOLDER_NOT_CLEAN"

// Applied says what Apply did, file by file (paths relative to the repository).
type Applied struct {
	Written   []string `json:"written"`   // took the task's change, whole or some of its hunks
	Same      []string `json:"same"`      // already held it
	Conflicts []string `json:"conflicts"` // the person changed what the task changed (a file, or some of its hunks): left as they are
}

// Apply writes every change of the task into the person's folder that can go without touching
// what the person changed there since (ApplyFile for each file); the rest are conflicts.
func Apply(ctx context.Context, t Task) (Applied, error) {
	out := Applied{Written: []string{}, Same: []string{}, Conflicts: []string{}}
	review, err := t.Review(ctx)
	if err != nil {
		return out, err
	}
	for _, f := range review.Files {
		got, err := t.apply(ctx, f, nil)
		if err != nil {
			return out, err
		}
		switch {
		case got.Written:
			out.Written = append(out.Written, f.Path)
		case f.State == StateApplied:
			out.Same = append(out.Same, f.Path)
		}
		if got.State == StateConflict {
			out.Conflicts = append(out.Conflicts, f.Path)
		}
	}
	return out, nil
}

// readRegular reads a regular file; a link, a folder or nothing reads as absent, so a link the
// task made is never followed out of its worktree.
func readRegular(path string) ([]byte, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	return readFile(path)
}

// inside reports whether p's folder in repo resolves inside repo: a write never follows a link
// out of the person's folder.
func inside(repo, p string) bool {
	dir := filepath.Dir(filepath.Join(repo, p))
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			root, err := filepath.EvalSymlinks(repo)
			return err == nil && (real == root || strings.HasPrefix(real, root+string(filepath.Separator)))
		}
		if dir == repo || dir == filepath.Dir(dir) {
			return false
		}
		dir = filepath.Dir(dir) // a folder the task added: its parent decides
	}
}

// put gives dst the content and mode of src, or removes dst when src is gone.
func put(src, dst string, exists bool) error {
	if !exists {
		err := os.Remove(dst)
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := dst + ".agentdesk-apply"
	if err := os.WriteFile(tmp, data, fi.Mode().Perm()); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// blobAt is the exact content of path at rev in repo; ok is false where rev has no such file.
func blobAt(ctx context.Context, repo, rev, p string) ([]byte, bool) {
	cmd := exec.CommandContext(ctx, "git", "-c", "core.hooksPath=/dev/null", "cat-file", "blob", rev+":"+p)
	cmd.Dir = repo
	out, err := cmd.Output()
	return out, err == nil
}

// Merge brings the task's branch into the person's current branch, as a merge commit or, with
// squash, as one commit of its changes. The person's folder must have no uncommitted changes to
// tracked files; a merge that conflicts is undone and its files listed in the error. The task's
// uncommitted files are not part of it: Apply carries those.
func Merge(ctx context.Context, t Task, squash bool, message string) error {
	if err := t.Migrate(); err != nil {
		return err
	}
	status, err := run(ctx, t.Repo, nil, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return err
	}
	if status != "" {
		return errs.New(NotClean, "Path", t.Repo)
	}
	args := []string{"merge", "--no-ff", "--quiet", "-m", message, t.Branch}
	if squash {
		args = []string{"merge", "--squash", "--quiet", t.Branch}
	}
	if _, err := run(ctx, t.Repo, nil, args...); err != nil {
		_, _ = run(ctx, t.Repo, nil, "reset", "--merge")
		return err
	}
	if squash {
		if _, err := run(ctx, t.Repo, nil, "commit", "--quiet", "-m", message); err != nil {
			_, _ = run(ctx, t.Repo, nil, "reset", "--merge")
			return err
		}
	}
	return nil
}
