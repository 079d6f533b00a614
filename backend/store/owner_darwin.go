//go:build darwin

package store

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// processStart asks the kernel (sysctl kern.proc.pid) when the process started.
func processStart(pid int) (started, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return started{}, err
	}
	tv := kp.Proc.P_starttime
	if tv.Sec == 0 && tv.Usec == 0 { // no such process: the kernel answers with an empty record
		return started{}, fmt.Errorf("no process %d", pid)
	}
	return started{token: fmt.Sprintf("%d.%06d", tv.Sec, tv.Usec), at: time.Unix(int64(tv.Sec), int64(tv.Usec)*1000)}, nil
}
