//go:build linux

package store

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// userHZ is the unit of /proc's start times: USER_HZ, 100 on every Linux ABI.
const userHZ = 100

// processStart reads field 22 of /proc/pid/stat: clock ticks from boot to the process's start.
func processStart(pid int) (started, error) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return started{}, err
	}
	// The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
	end := bytes.LastIndexByte(raw, ')')
	fields := strings.Fields(string(raw[end+1:]))
	if end < 0 || len(fields) < 20 {
		return started{}, errors.New("unreadable /proc stat")
	}
	ticks, err := strconv.ParseUint(fields[19], 10, 64)
	if err != nil {
		return started{}, err
	}
	at := bootTime().Add(time.Duration(ticks) * time.Second / userHZ)
	return started{token: fields[19], at: at}, nil
}

// bootTime is btime from /proc/stat, read once.
var bootTime = sync.OnceValue(func() time.Time {
	raw, _ := os.ReadFile("/proc/stat")
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "btime "); ok {
			if sec, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64); err == nil {
				return time.Unix(sec, 0)
			}
		}
	}
	return time.Time{}
})
