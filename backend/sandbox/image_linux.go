//go:build linux

package sandbox

import (
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// image is the embedded helper program (UseHelperImage), or nil to re-execute this binary.
var image atomic.Pointer[[]byte]

// UseHelperImage makes Command run the given static helper program, held in a sealed memory
// file, instead of re-executing this binary. Call it before the first command (main does, in the
// desktop build). The memory file cannot be changed once sealed, so no file on disk that a
// command could replace ever decides how the next command is confined.
func UseHelperImage(program []byte) {
	if len(program) > 0 {
		image.Store(&program)
	}
}

// helperPath is the program Command starts as the helper.
func helperPath() (string, error) {
	if image.Load() == nil {
		if !hooked.Load() {
			return "", errHelperMissing()
		}
		return selfPath, nil
	}
	return imagePath()
}

// imagePath writes the image into a sealed memory file once; the child execs it by its /proc
// path (the descriptor is close-on-exec, so the shell never inherits it).
var imagePath = sync.OnceValues(func() (string, error) {
	fd, err := unix.MemfdCreate("agentdesk-sandbox", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return "", fmt.Errorf("memfd_create: %w", err)
	}
	program := *image.Load()
	for written := 0; written < len(program); {
		n, err := unix.Write(fd, program[written:])
		if err != nil {
			unix.Close(fd)
			return "", fmt.Errorf("writing the helper: %w", err)
		}
		written += n
	}
	seals := unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, seals); err != nil {
		unix.Close(fd)
		return "", fmt.Errorf("sealing the helper: %w", err)
	}
	return fmt.Sprintf("/proc/self/fd/%d", fd), nil
})
