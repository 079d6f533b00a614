//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"agentdesk/backend/proc"
)

// supervise runs the shell as the helper's child and stays above it until it exits, instead
// of exec'ing it in place: the helper leads the process group, so when AgentDesk dies (its
// parent-death signal, proc.ParentDeathSignal) it kills the whole group — the shell and
// everything it started — which the kernel's parent-death signal alone, reaching only the
// direct child, could not. The shell is forked from the confined thread the caller locked, so
// it carries the Landlock domain, no_new_privs and the dropped capabilities. The helper then
// exits as the shell did: the same status, or the same signal.
func supervise(shell string, args, env []string) error {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, proc.ParentDeathSignal, syscall.SIGHUP, syscall.SIGINT)
	cmd := exec.Command(shell, args...)
	cmd.Args[0] = shell
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Should the helper itself be killed outright, the shell goes with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		exitLike(err)
		return err
	case <-stop:
		_ = syscall.Kill(0, syscall.SIGKILL) // the whole group, this helper included
		os.Exit(helperFailed)
		return nil
	}
}

// exitLike ends the helper with the shell's own exit status, or by the signal that ended it.
func exitLike(waitErr error) {
	var exit *exec.ExitError
	if waitErr == nil {
		os.Exit(0)
	}
	if !errors.As(waitErr, &exit) {
		return
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		os.Exit(exit.ExitCode())
	}
	sig := ws.Signal()
	switch sig {
	case syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGILL:
		// The Go runtime owns these; the shell's convention says the rest.
	default:
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
	}
	os.Exit(128 + int(sig))
}
