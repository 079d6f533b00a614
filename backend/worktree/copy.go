package worktree

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// Bounds of what a new worktree gets copied: a glob that matches a build folder must not turn
// the creation of a task into a copy of gigabytes.
const (
	CopyMaxFileSize = 10 << 20
	CopyMaxFiles    = 1000
)

// Why a file a glob matched was not copied.
const (
	SkipLink      = "link"      // a symbolic link (or a file below one): never followed
	SkipIrregular = "irregular" // not a regular file (a socket, a device, a fifo)
	SkipTooLarge  = "too_large" // larger than CopyMaxFileSize
	SkipSensitive = "sensitive" // on the sensitive list, and no entry of the person's names it
	SkipDenied    = "denied"    // a path deny rule names it where it is, and would not cover a copy
	SkipExists    = "exists"    // the worktree has a file there already
	SkipFailed    = "failed"    // reading or writing it failed (no permission, a full disk)
)

// Copied is what CopyUntracked brought into a new worktree: the files copied, those matched but
// skipped and why, and how many matched beyond CopyMaxFiles (not looked at).
type Copied struct {
	Files    []string  `json:"files"`
	Skipped  []Skipped `json:"skipped,omitempty"`
	LeftOver int       `json:"left_over,omitempty"`
}

// Skipped is one matched file that was not copied.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// CopyUntracked copies the untracked and ignored files of the person's folder that globs (the
// person's worktree-copy setting, policy.ParseRelativeGlobs) match into the task's worktree, at
// the same paths. Only regular files inside the repository are copied: no link is followed, no
// .git looked into, no nested repository entered. A file on the sensitive list is copied only
// where one of the globs that match it names a secret itself (".env", "config/*.pem"), so a
// broad glob ("*", "config/**") never sweeps a secret along; copied, it stays on the list in the
// worktree, which is the session's workspace.
func CopyUntracked(ctx context.Context, t Task, globs []string, guard Guard) (Copied, error) {
	out := Copied{Files: []string{}}
	if len(globs) == 0 {
		return out, nil
	}
	listed, err := run(ctx, t.Repo, nil, "ls-files", "--others", "-z")
	if err != nil {
		return out, err
	}
	from, err := os.OpenRoot(t.Repo)
	if err != nil {
		return out, errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	defer from.Close()
	to, err := os.OpenRoot(t.Path)
	if err != nil {
		return out, errs.Wrap(GitFailed, err, "Detail", err.Error())
	}
	defer to.Close()
	for _, rel := range matching(listed, globs) {
		if len(out.Files)+len(out.Skipped) == CopyMaxFiles {
			out.LeftOver++
			continue
		}
		reason, err := copyOne(from, to, rel, guard.refuses(rel, filepath.Join(t.Repo, rel), globs))
		if err != nil {
			reason = SkipFailed // one unreadable file does not stop the task
		}
		if reason != "" {
			out.Skipped = append(out.Skipped, Skipped{Path: rel, Reason: reason})
		} else {
			out.Files = append(out.Files, rel)
		}
	}
	return out, nil
}

// matching lists the paths of git's NUL-separated listing that globs cover, sorted, without a
// nested repository (listed as "dir/") or anything in a .git.
func matching(listed string, globs []string) []string {
	var out []string
	for _, rel := range strings.Split(listed, "\x00") {
		if rel == "" || strings.HasSuffix(rel, "/") || inGitDir(rel) {
			continue
		}
		if _, ok := policy.MatchGlobs(globs, rel); ok {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

func inGitDir(rel string) bool {
	return slices.ContainsFunc(strings.Split(rel, "/"), func(seg string) bool { return strings.EqualFold(seg, ".git") })
}

// Guard is what protects the person's files from commands, which a copy must not get around:
// the sensitive list and the path deny rules.
type Guard struct {
	Sensitive policy.SensitiveList
	Rules     []policy.Rule
}

// refuses says why rel (abs in the person's folder) is not copied, "" when it may be. A file on
// the sensitive list is copied only where one of the globs that cover it is itself a name the
// list covers. A file only an absolute sensitive entry or deny rule covers is never copied: that
// entry would not cover its copy in the worktree.
func (g Guard) refuses(rel, abs string, globs []string) string {
	if policy.DeniedAt(g.Rules, abs) {
		return SkipDenied
	}
	if _, ok := g.Sensitive.Match(rel); !ok {
		if _, byPath := g.Sensitive.Match(abs); byPath {
			return SkipSensitive
		}
		return ""
	}
	for _, glob := range globs {
		if _, covers := policy.MatchGlobs([]string{glob}, rel); !covers {
			continue
		}
		if _, names := g.Sensitive.Match(glob); names {
			return ""
		}
	}
	return SkipSensitive
}

// copyOne copies one file, or says why it did not (refused: the guard's reason); err is a
// failure of the copy itself.
func copyOne(from, to *os.Root, rel, refused string) (reason string, err error) {
	if refused != "" {
		return refused, nil
	}
	info, reason, err := regularFile(from, rel)
	if reason != "" || err != nil {
		return reason, err
	}
	src, err := from.Open(rel)
	if err != nil {
		return "", err
	}
	defer src.Close()
	// The file is checked again once open: a link put in its place since is not read through.
	if opened, err := src.Stat(); err != nil || !os.SameFile(info, opened) {
		return SkipLink, err
	}
	if err := to.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return "", err
	}
	dst, err := to.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if errors.Is(err, fs.ErrExist) {
		return SkipExists, nil
	}
	if err != nil {
		return "", err
	}
	// A file that grew past the bound since it was measured is not copied half.
	n, err := io.Copy(dst, io.LimitReader(src, CopyMaxFileSize+1))
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > CopyMaxFileSize {
		return SkipTooLarge, to.Remove(rel)
	}
	return "", err
}

// regularFile is rel's own information when it is a regular file within the size bound, no
// folder on its way a link; otherwise reason says why it is skipped.
func regularFile(root *os.Root, rel string) (fs.FileInfo, string, error) {
	parts := strings.Split(rel, "/")
	for i := range parts {
		info, err := root.Lstat(strings.Join(parts[:i+1], "/"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, SkipIrregular, nil // gone since git listed it
		case err != nil:
			return nil, "", err
		case info.Mode()&fs.ModeSymlink != 0:
			return nil, SkipLink, nil
		case i < len(parts)-1:
			continue
		case !info.Mode().IsRegular():
			return nil, SkipIrregular, nil
		case info.Size() > CopyMaxFileSize:
			return nil, SkipTooLarge, nil
		default:
			return info, "", nil
		}
	}
	return nil, SkipIrregular, nil
}
