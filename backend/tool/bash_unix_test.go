//go:build unix

package tool

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// processAlive is kill -0, except that a zombie (dead, not yet reaped) counts as gone.
func processAlive(t *testing.T, pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil {
		t.Fatalf("bad pid %q", pid)
	}
	if syscall.Kill(n, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}
