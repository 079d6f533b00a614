//go:build linux

// Package proctest reads the process table for tests that check what outlives what.
package proctest

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Descendants lists every process whose parent chain reaches root.
func Descendants(root int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := stat(pid, 4); ok {
			parent[pid], _ = strconv.Atoi(ppid)
		}
	}
	var out []int
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == root {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// WaitForDescendant returns the processes below root once one of them runs the command leaf.
func WaitForDescendant(t testing.TB, root int, leaf string) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		tree := Descendants(root)
		for _, pid := range tree {
			if Comm(pid) == leaf {
				return tree
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s below %d", leaf, root)
	return nil
}

// WaitGone fails unless every pid has ended (or is a zombie) within the grace.
func WaitGone(t testing.TB, pids []int, grace time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(grace)
	for _, pid := range pids {
		for Alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d (%s) outlived %s", pid, Comm(pid), what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// Alive: the process exists and is not a zombie waiting to be reaped.
func Alive(pid int) bool {
	st, ok := stat(pid, 3)
	return ok && st != "Z" && st != "X"
}

// Group is the process group of pid, or -1.
func Group(pid int) int {
	s, ok := stat(pid, 5)
	if !ok {
		return -1
	}
	g, _ := strconv.Atoi(s)
	return g
}

// Comm is the command name of pid.
func Comm(pid int) string {
	raw, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(raw))
}

// stat is field n (1-based, as in proc(5)) of /proc/pid/stat; the command name may hold spaces.
func stat(pid, n int) (string, bool) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(raw)
	end := strings.LastIndexByte(s, ')')
	if end < 0 || n < 3 {
		return "", false
	}
	fields := strings.Fields(s[end+1:])
	if n-3 >= len(fields) {
		return "", false
	}
	return fields[n-3], true
}
