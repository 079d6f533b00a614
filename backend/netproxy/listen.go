package netproxy

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"

	"agentdesk/backend/errs"
)

// listenPrivate creates the socket in a folder only this user can enter. A socket's own mode
// is not enough: on some systems connecting ignores it, the folder's mode never.
func listenPrivate(path string) (*net.UnixListener, error) {
	if err := ensurePrivateFolder(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, errs.Wrap(ListenFailed, err, "Path", path, "Problem", problem(err))
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, errs.Wrap(ListenFailed, err, "Path", path, "Problem", problem(err))
	}
	return ln, nil
}

// ensurePrivateFolder creates dir as 0700 when it is missing, and otherwise insists it is a
// real folder (not a link) owned by this user that no one else may enter.
func ensurePrivateFolder(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return errs.Wrap(ListenFailed, err, "Path", dir, "Problem", problem(err))
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return errs.Wrap(ListenFailed, err, "Path", dir, "Problem", problem(err))
	}
	if !info.IsDir() || info.Mode().Perm()&0o077 != 0 || !ownedByMe(info) {
		return errs.New(FolderNotPrivate, "Folder", dir)
	}
	return nil
}

// removeStaleSocket clears a socket left by a proxy that did not close (a crash); anything
// else at the path is not ours to remove.
func removeStaleSocket(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil || info.Mode().Type() != fs.ModeSocket {
		return errs.New(ListenFailed, "Path", path, "Problem", "something else is at this path")
	}
	if err := os.Remove(path); err != nil {
		return errs.Wrap(ListenFailed, err, "Path", path, "Problem", problem(err))
	}
	return nil
}
