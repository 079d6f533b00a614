//go:build unix

package policy

import (
	"os"
	"syscall"
)

// statID is the device and inode of the folder p reaches, links followed.
func statID(p string) (fileID, bool) {
	info, err := os.Stat(p)
	if err != nil {
		return fileID{}, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true //nolint:unconvert // int32 on darwin
}
