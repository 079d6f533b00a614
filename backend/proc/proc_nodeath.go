//go:build unix && !linux

package proc

import "syscall"

// dieWithParent has no counterpart here: a process group is all the tie there is.
func dieWithParent(*syscall.SysProcAttr) {}
