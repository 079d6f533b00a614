package policy

import (
	"io/fs"
	"syscall"
)

// Every decision resolves the words of a command through the file system, and on a virtual
// machine each lstat or folder listing costs microseconds. The tree (tree_linux.go) remembers,
// across decisions, what the file system said about the entries below a workspace root, and
// that a root or data folder still sits where its path says, and forgets it as soon as
// anything it learned from changes: each folder is watched with inotify before it is read (the
// folders above an anchor for their entry on its way), the mount table is watched too (a mount
// sends no inotify event), and each decision starts by polling both. A change whose system
// call returned before a decision began is therefore always seen by that decision (the
// fresh*_test.go files hold it to that). Where no such watch exists (other systems, file
// systems whose changes may come from elsewhere), nothing is remembered and every decision
// asks the file system afresh.

// treeFact is what an lstat said about one path: the type bits of its mode, or the error that
// only the tree's shape decides (ENOENT, ENOTDIR). Other errors are never remembered.
type treeFact struct {
	mode  fs.FileMode
	errno syscall.Errno
}

// result is the fact as os.Lstat would give it for the path p.
func (f treeFact) result(p string) (fs.FileMode, error) {
	if f.errno != 0 {
		return 0, &fs.PathError{Op: "lstat", Path: p, Err: f.errno}
	}
	return f.mode, nil
}

// factOf keeps what may be remembered of an lstat's answer.
func factOf(info fs.FileInfo, err error) (treeFact, bool) {
	if err == nil {
		return treeFact{mode: info.Mode().Type()}, true
	}
	if pe, ok := err.(*fs.PathError); ok {
		if errno, ok := pe.Err.(syscall.Errno); ok && (errno == syscall.ENOENT || errno == syscall.ENOTDIR) {
			return treeFact{errno: errno}, true
		}
	}
	return treeFact{}, false
}
