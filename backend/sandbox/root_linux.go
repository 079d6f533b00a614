//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// namespaceTemp is the private temp folder's path inside the namespace: a tmpfs of its own.
const namespaceTemp = "/tmp"

// isolate builds the file system the command sees (view.go) and makes it the helper's root. The
// new root is a tmpfs mounted on the call's private temp folder, which exists only for this
// call; each shown folder is bound at its own path inside it, then pivot_root swaps the roots
// and the old one is detached, so no path leads back to it.
func isolate(p Policy, v View) error {
	root := p.TempDir
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
		return fmt.Errorf("new root: %w", err)
	}
	// The private /tmp comes first: a folder shown below /tmp is bound onto it, not under it.
	steps := []func() error{
		func() error { return showSystem(root) },
		func() error { return showToolchain(root, v) },
		func() error { return showWorkspace(root, p) },
		func() error { return showProxy(root, p) },
		func() error { return showHome(root) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return pivot(root, p.Workspace)
}

// showToolchain binds the caches read-write, then the toolchain read-only: a read-only folder
// inside a writable one stays read-only, its mount on top. A top-level link (such as /bin ->
// usr/bin) is copied as a link, so it resolves inside the new root.
func showToolchain(root string, v View) error {
	for _, dir := range v.ReadWrite {
		if err := showPath(root, dir, false); err != nil {
			return err
		}
	}
	for _, dir := range v.ReadOnly {
		if err := showPath(root, dir, true); err != nil {
			return err
		}
	}
	return nil
}

// showProxy binds the folder of the proxy's socket, read-only: connecting needs no write.
func showProxy(root string, p Policy) error {
	if p.ProxySocket == "" {
		return nil
	}
	return bindAt(proxyFolder(p.ProxySocket), filepath.Join(root, proxyFolder(p.ProxySocket)), true)
}

func showPath(root, path string, readOnly bool) error {
	if isKind(path, fs.ModeSymlink) && filepath.Dir(path) == "/" {
		target, err := os.Readlink(path)
		if err != nil {
			return err
		}
		return os.Symlink(target, filepath.Join(root, path))
	}
	err := bindAt(path, filepath.Join(root, path), readOnly)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // removed since the view was listed, or a dangling link: nothing to show
	}
	return err
}

// showSystem gives the command a private /tmp, a minimal /dev, its own /proc (the PID
// namespace's: only its processes) and a read-only /sys.
func showSystem(root string) error {
	tmp := filepath.Join(root, namespaceTemp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", tmp, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("private /tmp: %w", err)
	}
	if err := showDevices(filepath.Join(root, "dev")); err != nil {
		return err
	}
	proc := filepath.Join(root, "proc")
	if err := os.Mkdir(proc, 0o555); err != nil {
		return err
	}
	if err := unix.Mount("proc", proc, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("/proc: %w", err)
	}
	return bindAt("/sys", filepath.Join(root, "sys"), true)
}

// shownDevices are the device files a shell and its programs commonly open.
var shownDevices = []string{"null", "zero", "full", "random", "urandom", "tty"}

// showDevices makes /dev a tmpfs holding the devices above, a private pseudo-terminal instance
// and shared-memory folder, and the usual links into /proc.
func showDevices(dev string) error {
	if err := os.Mkdir(dev, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755"); err != nil {
		return fmt.Errorf("/dev: %w", err)
	}
	for _, name := range shownDevices {
		if err := bindAt("/dev/"+name, filepath.Join(dev, name), false); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.Mkdir(filepath.Join(dev, "shm"), 0o1777); err != nil {
		return err
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"} {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return err
		}
	}
	pts := filepath.Join(dev, "pts")
	if err := os.Mkdir(pts, 0o755); err != nil {
		return err
	}
	// A kernel that refuses a private devpts instance leaves /dev/pts empty: a command then
	// cannot open a pseudo-terminal, which no command needs without a terminal to talk to.
	_ = unix.Mount("devpts", pts, "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620")
	return nil
}

// showWorkspace binds the workspace read-write (read-only for a read-only call: a workspace
// below /tmp would otherwise be writable through the private /tmp's grant), its .git
// read-only, and hides the data folder where it lies inside something shown.
func showWorkspace(root string, p Policy) error {
	if err := bindAt(p.Workspace, filepath.Join(root, p.Workspace), p.ReadOnly || p.WorkspaceReadOnly); err != nil {
		return err
	}
	if err := showGit(root, p); err != nil {
		return err
	}
	for _, path := range append([]string{p.DataDir}, p.Hide...) {
		if path == "" {
			continue
		}
		if err := maskIn(root, path); err != nil {
			return err
		}
	}
	return nil
}

// maskIn hides path inside the new root, by its spelling and by its real path: the workspace is
// shown at the path it was given, which may go through a link.
func maskIn(root, path string) error {
	if err := mask(filepath.Join(root, path)); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil || real == path {
		return nil
	}
	return mask(filepath.Join(root, real))
}

// showHome creates $HOME, empty but for the caches and toolchains bound into it, so programs
// that expect it (cd ~, ~/.config lookups) find a folder.
func showHome(root string) error {
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) || home == "/" {
		return nil
	}
	return os.MkdirAll(filepath.Join(root, home), 0o700)
}

// showGit makes the workspace's repository read-only: its hooks and config run outside any
// sandbox the next time the person uses git, and the rest (the index, refs, commondir,
// modules) can point git at code. With gitWrite (an approved "git" escalation) the rest becomes
// writable, so commit, add and checkout work; hooks and config never do. A .git file (a linked
// work tree, a submodule) names the repository's folders elsewhere: they are shown the same way,
// so git works there too.
func showGit(root string, p Policy) error {
	git := filepath.Join(p.Workspace, ".git")
	switch {
	case isKind(git, fs.ModeDir):
		return protectGitDir(git, filepath.Join(root, git), p.GitWrite)
	case isKind(git, 0):
		for _, dir := range linkedGitDirs(git) {
			if err := protectGitDir(dir, filepath.Join(root, dir), p.GitWrite); err != nil {
				return err
			}
		}
		if p.Task != nil {
			if err := openTaskGit(root, *p.Task); err != nil {
				return err
			}
		}
		// The .git file names the repository: read-only (and a mount point), it cannot be
		// pointed at another one, with hooks of its own, for the person's next git command.
		return bindAt(git, filepath.Join(root, git), true)
	}
	return nil
}

// openTaskGit makes a task worktree's own git folder and its branch's folders of refs writable,
// over the read-only repository, and keeps read-only inside them what would point git
// elsewhere: commondir, gitdir and config.worktree.
func openTaskGit(root string, g TaskGit) error {
	for _, dir := range append(g.writable(), g.Objects()) {
		// Made on the host before the mount: git removes an empty ref folder when it packs refs.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	for _, dir := range g.writable() {
		if err := bindAt(dir, filepath.Join(root, dir), false); err != nil {
			return err
		}
	}
	for _, name := range []string{"commondir", "gitdir", "config.worktree", "hooks"} {
		path := filepath.Join(g.GitDir, name)
		if isKind(path, 0) || isKind(path, fs.ModeDir) {
			if err := bindAt(path, filepath.Join(root, path), true); err != nil {
				return err
			}
		}
	}
	return nil
}

// protectGitDir binds the git folder src at dst, read-only unless gitWrite, and then its hooks
// and config read-only in any case. Bound, the folder is a mount point, which cannot be renamed
// or removed (EBUSY): a shell cannot move it aside and put a folder with its own hooks there.
func protectGitDir(src, dst string, gitWrite bool) error {
	if err := bindAt(src, dst, !gitWrite); err != nil || !gitWrite {
		return err
	}
	hooks := filepath.Join(dst, "hooks")
	// git creates hooks/ itself; a repository without it would let the shell create one. Where
	// the person cannot create it either (a read-only .git), neither can the shell.
	_ = os.Mkdir(hooks, 0o755)
	for _, path := range []string{hooks, filepath.Join(dst, "config")} {
		// A symbolic link is skipped: a mount lands on its target, and the link itself could
		// still be replaced.
		if isKind(path, fs.ModeDir) || isKind(path, 0) {
			if err := bindAt(path, path, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkedGitDirs reads a .git file ("gitdir: PATH") and returns the folder holding objects,
// refs, hooks and config (the gitdir's "commondir", or the gitdir itself) and then the gitdir
// where it differs; nothing when the file says something else.
func linkedGitDirs(gitFile string) []string {
	raw, err := os.ReadFile(gitFile)
	line, ok := strings.CutPrefix(strings.TrimSpace(string(raw)), "gitdir: ")
	if err != nil || !ok {
		return nil
	}
	gitdir := resolveFrom(filepath.Dir(gitFile), line)
	common := gitdir
	if raw, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		common = resolveFrom(gitdir, strings.TrimSpace(string(raw)))
	}
	var out []string
	for _, dir := range []string{common, gitdir} {
		if isKind(dir, fs.ModeDir) && (len(out) == 0 || out[0] != dir) {
			out = append(out, dir)
		}
	}
	return out
}

// resolveFrom is path as an absolute, clean path, relative ones taken from dir.
func resolveFrom(dir, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return filepath.Clean(path)
}

// pivot makes root the root and detaches the old one, then enters the workspace inside it:
// the working folder inherited from before the pivot would still lead into the old root.
func pivot(root, workspace string) error {
	old := filepath.Join(root, ".oldroot")
	if err := os.Mkdir(old, 0o700); err != nil {
		return err
	}
	if err := unix.PivotRoot(root, old); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Unmount("/.oldroot", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the old root: %w", err)
	}
	if err := os.Remove("/.oldroot"); err != nil {
		return err
	}
	if err := remountReadOnly("/"); err != nil {
		return err
	}
	return unix.Chdir(workspace)
}

// loopbackUp brings up lo, the one interface of a new network namespace, which starts down.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	return nil
}
