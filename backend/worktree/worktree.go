// Package worktree gives a task its own git worktree of the person's repository, and takes it
// away again without losing work: what did not reach the person's folder or branch, judged by
// content rather than by branch ancestry (so a squash merge counts as merged), is kept on the
// branch and on a ref of its own, restorable byte for byte.
//
// Every git command runs with the repository named (GIT_DIR, GIT_WORK_TREE), never discovered,
// and with hooks and fsmonitor off: a .git file or a hook the agent planted in the worktree can
// neither redirect AgentDesk's git nor run through it.
package worktree

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"agentdesk/backend/errs"
)

// Error kinds.
const (
	// NotARepository: the folder is not inside a git repository with a commit to start from.
	NotARepository errs.Kind = "WORKTREE_NOT_A_REPOSITORY"
	// GitFailed: a git command failed; Detail has its message.
	GitFailed errs.Kind = "WORKTREE_GIT_FAILED"
	// Gone: the task's worktree folder no longer exists (removed by hand, or by the cleanup).
	Gone errs.Kind = "WORKTREE_GONE"
)

// RootFor is the folder that holds the tasks' worktrees for the data folder dataDir: beside it,
// not inside, since every command's sandbox hides the data folder.
func RootFor(dataDir string) string { return filepath.Clean(dataDir) + "-worktrees" }

// Task is one task's worktree.
type Task struct {
	ID     string `json:"id"`     // the session's id
	Repo   string `json:"repo"`   // the person's work tree (the repository's top folder)
	Common string `json:"common"` // the repository's shared git folder (objects, refs, config)
	Path   string `json:"path"`   // the worktree's folder
	GitDir string `json:"gitDir"` // its own git folder (Common/worktrees/NAME)
	Branch string `json:"branch"` // agentdesk/SHORT/SLUG: a folder of refs of its own
	Base   string `json:"base"`   // the commit it started from
}

// parallelCheckout has a worktree's checkout, which writes every file of the repository, use one
// worker per core: it takes half the time of one on two cores.
var parallelCheckout = []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=checkout.workers", "GIT_CONFIG_VALUE_0=0"}

// Create makes a worktree for task id, named after title, of the repository holding folder, on a
// new branch from the commit the folder is on, under root. With carry, the folder's uncommitted
// changes to tracked files are carried over.
func Create(ctx context.Context, folder, root, id, title string, carry bool) (Task, error) {
	top, err := run(ctx, folder, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return Task{}, errs.New(NotARepository, "Path", folder)
	}
	common, err := run(ctx, top, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return Task{}, errs.New(NotARepository, "Path", folder)
	}
	base, err := run(ctx, top, nil, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return Task{}, errs.New(NotARepository, "Path", folder)
	}
	short, slug := shortID(id), slugOf(title)
	t := Task{ID: id, Repo: top, Common: common, Base: base, Branch: "agentdesk/" + short + "/" + slug,
		Path: filepath.Join(root, repoKey(top), short+"-"+slug)}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return Task{}, errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	if _, err := run(ctx, top, parallelCheckout, "worktree", "add", "--quiet", "-b", t.Branch, t.Path, base); err != nil {
		return Task{}, err
	}
	t.GitDir, err = GitDirOf(ctx, t.Path)
	if err != nil {
		return Task{}, err
	}
	if carry {
		if err := carryOver(ctx, t); err != nil {
			return Task{}, err
		}
	}
	return t, nil
}

// carryOver applies the person's uncommitted changes to tracked files in the new worktree.
func carryOver(ctx context.Context, t Task) error {
	stash, err := run(ctx, t.Repo, nil, "stash", "create")
	if err != nil || stash == "" {
		return err // nothing uncommitted: stash create prints nothing
	}
	_, err = t.git(ctx, nil, "stash", "apply", "--quiet", stash)
	return err
}

// Changed lists the files the task changed against its base: committed, uncommitted and new
// (untracked, not ignored) files.
func (t Task) Changed(ctx context.Context) ([]string, error) {
	if _, err := os.Stat(t.Path); err != nil {
		return nil, errs.New(Gone, "Path", t.Path)
	}
	if err := t.Migrate(); err != nil {
		return nil, err
	}
	tracked, err := t.git(ctx, nil, "diff", "--name-only", "--no-renames", "-z", t.Base)
	if err != nil {
		return nil, err
	}
	untracked, err := t.git(ctx, nil, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range append(strings.Split(tracked, "\x00"), strings.Split(untracked, "\x00")...) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// Unmerged lists the changed files whose content in the worktree reached neither the person's
// folder nor the commit their branch is on: a file counts as merged when either holds the same
// bytes (or both lack it), or when the person's file holds every one of the task's hunks.
// Content, not ancestry: a squash merge or a hand copy counts.
func (t Task) Unmerged(ctx context.Context) ([]string, error) {
	changed, err := t.Changed(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range changed {
		mine, mineOK := readFile(filepath.Join(t.Path, p))
		if theirs, ok := readFile(filepath.Join(t.Repo, p)); ok == mineOK && bytes.Equal(mine, theirs) {
			continue
		}
		if t.reachedBranch(ctx, p, mine, mineOK) {
			continue
		}
		// Applied hunk by hunk around the person's own edits: every hunk's lines are there.
		if t.reviewFile(ctx, p).State == StateApplied {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// reachedBranch reports whether the commit the person's branch is on holds the task's content of
// p: the same blob, or no file where the task removed it.
func (t Task) reachedBranch(ctx context.Context, p string, mine []byte, exists bool) bool {
	want, err := run(ctx, t.Repo, nil, "rev-parse", "--verify", "--quiet", "HEAD:"+p)
	if !exists {
		return err != nil
	}
	if err != nil {
		return false
	}
	got, err := hashObject(ctx, t.Repo, p, mine)
	return err == nil && got == want
}

func readFile(path string) ([]byte, bool) {
	b, err := os.ReadFile(path)
	return b, err == nil
}

// Kept is what Remove kept of a task whose work had not all reached the person.
type Kept struct {
	Branch string   `json:"branch"` // the task's branch, with its commits
	Ref    string   `json:"ref"`    // a commit on top of it holding the uncommitted files
	Files  []string `json:"files"`  // the files whose change had not reached the person
}

// Remove takes the task's worktree away. Work that reached the person is simply removed, with its
// branch; anything else is kept first: the branch stays, and the uncommitted files are
// committed on refs/agentdesk/kept/SHORT. Kept is nil when nothing needed keeping.
func Remove(ctx context.Context, t Task) (*Kept, error) {
	unmerged, err := t.Unmerged(ctx)
	if err != nil {
		return nil, err
	}
	var kept *Kept
	if len(unmerged) > 0 {
		ref, err := keep(ctx, t)
		if err != nil {
			return nil, err
		}
		kept = &Kept{Branch: t.Branch, Ref: ref, Files: unmerged}
	}
	if _, err := run(ctx, t.Repo, nil, "worktree", "remove", "--force", t.Path); err != nil {
		return nil, err
	}
	if kept == nil {
		if _, err := run(ctx, t.Repo, nil, "branch", "-D", "--quiet", t.Branch); err != nil {
			return nil, err
		}
	}
	return kept, nil
}

// keep commits the worktree as it is (tracked changes and new files, through an index of its
// own, so the task's index is untouched) on top of its branch, under refs/agentdesk/kept/SHORT.
func keep(ctx context.Context, t Task) (string, error) {
	index := filepath.Join(t.GitDir, "agentdesk-keep-index")
	defer os.Remove(index)
	env := []string{"GIT_INDEX_FILE=" + index}
	if _, err := t.git(ctx, env, "read-tree", "HEAD"); err != nil {
		return "", err
	}
	if _, err := t.git(ctx, env, "add", "--all"); err != nil {
		return "", err
	}
	tree, err := t.git(ctx, env, "write-tree")
	if err != nil {
		return "", err
	}
	// AgentDesk's own commit, under its own name: the person may have no git identity set.
	who := []string{"GIT_AUTHOR_NAME=AgentDesk", "GIT_AUTHOR_EMAIL=agentdesk@localhost", "GIT_COMMITTER_NAME=AgentDesk",
		"GIT_COMMITTER_EMAIL=agentdesk@localhost"}
	commit, err := t.git(ctx, who, "commit-tree", tree, "-p", "HEAD", "-m", "AgentDesk kept the uncommitted files of task "+t.ID)
	if err != nil {
		return "", err
	}
	ref := "refs/agentdesk/kept/" + shortID(t.ID)
	if _, err := run(ctx, t.Repo, nil, "update-ref", ref, commit); err != nil {
		return "", err
	}
	return ref, nil
}

// Restore brings a removed task back: its worktree on its branch, and the files that were
// uncommitted as uncommitted again, byte for byte. The kept ref is then dropped.
func Restore(ctx context.Context, t Task, k Kept) error {
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	if _, err := run(ctx, t.Repo, parallelCheckout, "worktree", "add", "--quiet", t.Path, k.Branch); err != nil {
		return err
	}
	if _, err := t.git(ctx, nil, "read-tree", "-u", "--reset", k.Ref); err != nil {
		return err
	}
	if _, err := t.git(ctx, nil, "reset", "--quiet"); err != nil {
		return err
	}
	_, err := run(ctx, t.Repo, nil, "update-ref", "-d", k.Ref)
	return err
}

// Recreate brings back a worktree whose folder went away outside AgentDesk (removed by hand, or
// by a cleanup of temporary folders): its branch, with every commit the task made, is checked
// out there again. Uncommitted files that were only in the folder are gone with it.
func Recreate(ctx context.Context, t Task) error {
	if _, err := os.Stat(t.GitDir); err == nil {
		if err := t.Migrate(); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	// --force: git still has the folder registered, as missing.
	_, err := run(ctx, t.Repo, parallelCheckout, "worktree", "add", "--force", "--quiet", t.Path, t.Branch)
	return err
}

// GitDirOf is the git folder of the worktree at path (its own, under the repository's).
func GitDirOf(ctx context.Context, path string) (string, error) {
	return run(ctx, path, nil, "rev-parse", "--path-format=absolute", "--git-dir")
}

// Missing reports a worktree whose folder is not there.
func (t Task) Missing() bool {
	_, err := os.Stat(t.Path)
	return errors.Is(err, fs.ErrNotExist)
}

// Migrate moves the objects the task's sandboxed commands wrote to its own folder (the sandbox
// sends them there, so the repository's objects are never written from inside) into the
// repository's, which the branch needs once the person's git reads it. An object is copied only
// where the repository lacks it, so nothing there is replaced; pack indexes go last, after
// their packs.
func (t Task) Migrate() error {
	src, dst := filepath.Join(t.GitDir, "objects"), filepath.Join(t.Common, "objects")
	var files, last []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		switch {
		case strings.HasPrefix(rel, "info"+string(filepath.Separator)), strings.HasPrefix(filepath.Base(rel), "tmp_"):
		case strings.HasSuffix(rel, ".idx"):
			last = append(last, rel)
		default:
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	for _, rel := range append(files, last...) {
		if err := copyNew(filepath.Join(src, rel), filepath.Join(dst, rel)); err != nil {
			return errs.Wrap(GitFailed, err, "Detail", err.Error())
		}
		os.Remove(filepath.Join(src, rel))
	}
	return nil
}

// copyNew copies src to dst unless dst exists, through a temporary file linked into place, so a
// reader never sees half an object and an existing one is never replaced.
func copyNew(src, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "tmp_agentdesk_")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o444); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), dst); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// git runs a git command in the task's worktree, the repository named.
func (t Task) git(ctx context.Context, env []string, args ...string) (string, error) {
	env = append(env, "GIT_DIR="+t.GitDir, "GIT_WORK_TREE="+t.Path)
	return run(ctx, t.Path, env, args...)
}

// run runs git in dir with hooks, fsmonitor and automatic maintenance off, and returns its output
// without the final newline; a failure is GitFailed with git's own message. Automatic maintenance
// is off because git detaches it: it would outlive the call, still writing in the person's
// repository, which their own next git command maintains anyway.
func run(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	full := append([]string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "commit.gpgSign=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.Env = append(cmd.Env, env...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		detail := strings.TrimSpace(stderr.String())
		if detail == "" {
			detail = err.Error()
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) && ctx.Err() != nil {
			detail = ctx.Err().Error()
		}
		return "", errs.Wrap(GitFailed, err, "Detail", "git "+args[0]+": "+detail)
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// hashObject is the blob id git would give content at path p (the repository's filters applied).
func hashObject(ctx context.Context, dir, p string, content []byte) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "-c", "core.hooksPath=/dev/null", "hash-object", "--path="+p, "--stdin")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(content)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// shortID is the first eight characters of the id's letters and digits: unique enough among one
// person's tasks, short enough for a branch name.
func shortID(id string) string {
	clean := nonWord.ReplaceAllString(strings.ToLower(id), "")
	if len(clean) > 8 {
		clean = clean[len(clean)-8:]
	}
	if clean == "" {
		clean = "task"
	}
	return clean
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// slugOf is the title as a branch name part: lower case words joined by "-", at most 40
// characters; "task" for a title with no letters or digits.
func slugOf(title string) string {
	s := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(title), "-"), "-")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		return "task"
	}
	return s
}

// repoKey names a repository's folder of worktrees: its folder's name and a hash of its path.
func repoKey(top string) string {
	sum := sha256.Sum256([]byte(top))
	return slugOf(filepath.Base(top)) + "-" + hex.EncodeToString(sum[:4])
}

// TopOf is the top folder of the repository folder lies in; ok is false outside one.
func TopOf(ctx context.Context, folder string) (string, bool) {
	top, err := run(ctx, folder, nil, "rev-parse", "--show-toplevel")
	return top, err == nil && top != ""
}

// CommonOf is the shared git folder of the repository folder lies in (the same for all its
// worktrees); ok is false outside one.
func CommonOf(ctx context.Context, folder string) (string, bool) {
	common, err := run(ctx, folder, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	return common, err == nil && common != ""
}
