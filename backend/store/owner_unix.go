//go:build unix

package store

import (
	"errors"
	"syscall"
)

// processAlive asks the kernel whether pid exists (signal 0 delivers nothing).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
