//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"agentdesk/backend/proc"
	"golang.org/x/sys/unix"
)

// endGrace bounds the wait for killed descendants to be reaped: a process stuck in the kernel
// (an unresponsive network file system) must not hold the call. With namespaces, the helper's
// own exit then ends it.
const endGrace = 2 * time.Second

// supervise runs the shell as the helper's child and stays above it until it exits, instead
// of exec'ing it in place: the helper leads the process group, so when AgentDesk dies (its
// parent-death signal, proc.ParentDeathSignal) it ends everything the shell started. The
// shell is forked from the confined thread the caller locked, so it carries the Landlock
// domain, no_new_privs and the dropped capabilities.
//
// Nothing the shell starts outlives it, even a process that left the group (setsid, a double
// fork): the helper is the first process of its PID namespace, whose exit the kernel turns into
// the end of every process in it, and in any case a child subreaper, which inherits every
// orphan below it and kills them all when the shell exits. The helper then exits as the shell
// did: the same status, or the same signal.
func supervise(shell string, args, env []string) error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, proc.ParentDeathSignal, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM)
	cmd := exec.Command(shell, args...)
	cmd.Args[0] = shell
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Should the helper itself be killed outright, the shell goes with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan unix.WaitStatus, 1)
	go func() { exited <- reapUntil(cmd.Process.Pid) }()
	select {
	case ws := <-exited:
		endDescendants()
		exitLike(ws)
	case <-stop:
		endDescendants()
		_ = syscall.Kill(0, syscall.SIGKILL) // the whole group, this helper included
		os.Exit(helperFailed)
	}
	return nil
}

// reapUntil reaps every child that ends (orphans are reparented to the helper) until pid does,
// and returns how pid ended. The Go runtime never reaps a child on its own.
func reapUntil(pid int) unix.WaitStatus {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		switch {
		case err == unix.EINTR:
		case err != nil:
			return ws // no child left: cannot happen before pid itself was reaped
		case got == pid:
			return ws
		}
	}
}

// endDescendants kills the helper's children until none is left. Each killed child's own
// children are reparented to the helper (the subreaper), so the next round finds them.
func endDescendants() {
	deadline := time.Now().Add(endGrace)
	for time.Now().Before(deadline) {
		for _, pid := range children(os.Getpid()) {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		if !reapAvailable() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// reapAvailable reaps every child that has ended and reports whether any is still running.
func reapAvailable() bool {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		switch {
		case err == unix.EINTR:
		case err != nil:
			return false // ECHILD: none left
		case got == 0:
			return true
		}
	}
}

// children lists the processes whose parent is pid, from /proc (the PID namespace's own, or
// the host's where there is none).
func children(parent int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppidOf(pid) == parent {
			out = append(out, pid)
		}
	}
	return out
}

// ppidOf reads the parent from /proc/PID/stat, whose second field (the command name, in
// parentheses) may itself hold spaces and parentheses: the fields after the last ')' are fixed.
func ppidOf(pid int) int {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return -1
	}
	return ppid
}

// exitLike ends the helper with the shell's own exit status, or by the signal that ended it.
func exitLike(ws unix.WaitStatus) {
	if !ws.Signaled() {
		os.Exit(ws.ExitStatus())
	}
	sig := ws.Signal()
	switch {
	case sig == syscall.SIGSEGV, sig == syscall.SIGBUS, sig == syscall.SIGFPE, sig == syscall.SIGILL:
		// The Go runtime owns these; the shell's convention says the rest.
	case os.Getpid() == 1:
		// The kernel ignores a signal the first process of a PID namespace sends itself, and the
		// Go runtime would then exit with status 2: the shell's convention is all there is.
	default:
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
	}
	os.Exit(128 + int(sig))
}
