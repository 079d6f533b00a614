//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// useNamespaces starts the helper in a new user namespace, where its own user and group map to
// themselves, and a new mount namespace it may change. The helper needs CAP_SYS_ADMIN there for
// its bind mounts and CAP_SETPCAP to drop root's capabilities; a non-root user loses every
// capability at the exec that starts the helper unless they are ambient.
func useNamespaces(cmd *exec.Cmd) {
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP},
	}
}

// privateMounts keeps the helper's mounts from propagating back to the person's namespace.
func privateMounts() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	return nil
}

// protect makes the workspace's git metadata read-only and hides the data folder. .git is bound
// onto itself first so it is a mount point, which cannot be renamed or removed (EBUSY): a shell
// cannot move it aside and put a folder with its own hooks in its place.
func protect(p Policy) error {
	if err := hideDataDir(p); err != nil {
		return err
	}
	git := filepath.Join(p.Workspace, ".git")
	if !isKind(git, fs.ModeDir) {
		return nil // no repository folder here (or a .git file): nothing this step can protect
	}
	if err := bind(git, false); err != nil {
		return err
	}
	hooks := filepath.Join(git, "hooks")
	// git creates hooks/ itself; a repository without it would let the shell create one. Where
	// the person cannot create it either (a read-only .git), neither can the shell.
	_ = os.Mkdir(hooks, 0o755)
	for _, path := range []string{hooks, filepath.Join(git, "config")} {
		// A symbolic link is skipped: a mount lands on its target, and the link itself could
		// still be replaced.
		if isKind(path, fs.ModeDir) || isKind(path, 0) {
			if err := bind(path, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// hideDataDir mounts an empty read-only tmpfs over the data folder, which also covers a data
// folder inside the workspace, where the Landlock grant on the workspace would include it. It
// is skipped when the workspace lies inside the data folder, which it would hide.
func hideDataDir(p Policy) error {
	data, err := filepath.EvalSymlinks(p.DataDir)
	if p.DataDir == "" || err != nil || !isKind(data, fs.ModeDir) {
		return nil
	}
	if ws, err := filepath.EvalSymlinks(p.Workspace); err == nil && within(ws, data) {
		return nil
	}
	const flags = unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
	if err := unix.Mount("tmpfs", data, "tmpfs", flags, "size=4k,mode=0500"); err != nil {
		return fmt.Errorf("hide %s: %w", data, err)
	}
	return nil
}

// within reports whether path is dir or lies below it (both cleaned, absolute).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// isKind reports whether path itself (not a link's target) has the type bits want (0: a file).
func isKind(path string, want fs.FileMode) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().Type() == want
}

// bind mounts path onto itself, then remounts it read-only when asked. A remount inside a user
// namespace must keep the flags the original mount had locked (nosuid, nodev, noexec, atime).
func bind(path string, readOnly bool) error {
	if err := unix.Mount(path, path, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s: %w", path, err)
	}
	if !readOnly {
		return nil
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY) | lockedFlags(st.Flags)
	if err := unix.Mount("", path, "", flags, ""); err != nil {
		return fmt.Errorf("read-only %s: %w", path, err)
	}
	return nil
}

func lockedFlags(st int64) uintptr {
	var out uintptr
	for stFlag, msFlag := range map[int64]uintptr{
		unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
		unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME,
	} {
		if st&stFlag != 0 {
			out |= msFlag
		}
	}
	return out
}

// probeReadOnly is the helper's answer to the namespace probe: bind dir read-only, show a write
// fails, and exit 0.
func probeReadOnly(dir string) error {
	if err := bind(dir, true); err != nil {
		return err
	}
	err := os.WriteFile(filepath.Join(dir, "probe"), nil, 0o600)
	if !errors.Is(err, unix.EROFS) {
		return fmt.Errorf("a read-only bind mount accepted a write (%v)", err)
	}
	os.Exit(0)
	return nil
}
