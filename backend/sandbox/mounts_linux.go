//go:build linux

package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// privateMounts keeps the helper's mounts from propagating back to the person's namespace.
func privateMounts() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	return nil
}

// isKind reports whether path itself (not a link's target) has the type bits want (0: a file).
func isKind(path string, want fs.FileMode) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().Type() == want
}

// bindAt mounts src (and the mounts below it) at dst, which it creates first as a folder or an
// empty file like src, then remounts it read-only when asked. Nothing below dst is made
// read-only by the remount, which is why Landlock, not the mount, is what refuses writes to
// the toolchain.
func bindAt(src, dst string, readOnly bool) error {
	if err := mountPoint(src, dst); err != nil {
		return err
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", src, err)
	}
	if readOnly {
		return remountReadOnly(dst)
	}
	return nil
}

// mountPoint creates dst as a folder, or as an empty file when src is not a folder.
func mountPoint(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return os.MkdirAll(dst, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_RDONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// remountReadOnly makes the mount at path read-only. A remount inside a user namespace must keep
// the flags the original mount had locked (nosuid, nodev, noexec, atime).
func remountReadOnly(path string) error {
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

// mask hides path: an empty read-only tmpfs over a folder, the empty /dev/null over a file.
func mask(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil // nothing there to hide
	case fi.IsDir():
		const flags = unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
		if err := unix.Mount("tmpfs", path, "tmpfs", flags, "size=4k,mode=0500"); err != nil {
			return fmt.Errorf("hide %s: %w", path, err)
		}
		return nil
	case fi.Mode().IsRegular():
		if err := unix.Mount("/dev/null", path, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hide %s: %w", path, err)
		}
		return remountReadOnly(path)
	}
	return nil // a link is hidden by what it points to; a device or socket is not ours to cover
}
