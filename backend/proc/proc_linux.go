//go:build linux

package proc

import "syscall"

// dieWithParent sets PR_SET_PDEATHSIG on the child. Go checks in the child that the parent is
// still there after setting it, so a parent that died during the fork is noticed too.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = ParentDeathSignal }
