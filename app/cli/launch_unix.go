//go:build unix && !desktop

package cli

import (
	"os"
	"syscall"
)

// startDesktop replaces this process with the desktop build; it returns only on failure.
func startDesktop(path string, args []string, _ *Context) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
