//go:build linux

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Securebits from linux/securebits.h, which golang.org/x/sys does not export.
const (
	secbitNoRoot       = 1 << 0
	secbitNoRootLocked = 1 << 1
)

// selfPath re-executes the running binary even when its file was replaced or removed on disk
// since it started (an upgrade): the kernel keeps the open executable.
const selfPath = "/proc/self/exe"

// runHelper confines this thread and runs the shell under it (supervise); it returns only on
// failure, else it exits as the shell did.
func runHelper(req request) error {
	// Landlock, no_new_privs and capabilities are per thread until the exec, which keeps only
	// the calling thread: everything below must happen on one thread, never released.
	runtime.LockOSThread()
	p := req.Policy
	if req.Namespaces {
		if err := enterView(&p, req.View, req.NewNet); err != nil {
			return err
		}
	}
	if !req.Unconfined {
		var view *View
		if req.Namespaces {
			view = &req.View
		}
		if err := confine(p, view); err != nil {
			return err
		}
	}
	if req.Probe {
		return probed(p)
	}
	env := without(os.Environ(), helperEnvName+"=")
	if req.Namespaces {
		env = withTempDir(env, p.TempDir)
	}
	if req.Namespaces && p.ProxySocket != "" {
		env = proxyEnv(env, p.LocalNet)
	}
	if req.Namespaces && p.Task != nil {
		env = taskGitEnv(env, *p.Task)
	}
	return supervise(req.Shell, req.Args, env)
}

// enterView builds the command's file system and network (root_linux.go), then drops the
// capabilities that needed. The private temp folder is /tmp from then on.
func enterView(p *Policy, v View, newNet bool) error {
	if err := privateMounts(); err != nil {
		return err
	}
	if err := isolate(*p, v); err != nil {
		return err
	}
	p.TempDir = namespaceTemp
	if newNet {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	if p.ProxySocket != "" {
		if err := startBridge(ProxyPort, p.ProxySocket); err != nil {
			return err
		}
		for _, port := range p.LocalPorts {
			if err := startBridge(port, LocalPortSocket(p.ProxySocket, port)); err != nil {
				return err
			}
		}
	}
	return dropCapabilities()
}

// confine applies the Landlock ruleset to this thread; the exec carries it to the shell.
func confine(p Policy, v *View) error {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return err
	}
	fd, flags, err := config(p, v != nil).NewRulesetFD(rules(p, abi, v)...)
	if err != nil {
		return err
	}
	if fd < 0 {
		// Command only starts the helper where Landlock answers: fail closed, never run bare.
		return errors.New("the kernel enforces no Landlock rule")
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	return ll.LandlockRestrictSelf(fd, flags)
}

// dropCapabilities leaves the shell without the capabilities the helper needed for its mounts:
// ambient ones are cleared, and SECBIT_NOROOT keeps a root user from regaining all of them at
// the exec (inside the namespace; the shell never had any outside it).
func dropCapabilities() error {
	const noRoot = secbitNoRoot | secbitNoRootLocked
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, noRoot, 0, 0, 0); err != nil {
		return err
	}
	return unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
}

// taskGitEnv sends a task's new git objects to its own folder, the repository's read as an
// alternate: the shared objects are never written, so no command can damage them.
func taskGitEnv(env []string, g TaskGit) []string {
	env = append(without(env, "GIT_OBJECT_DIRECTORY="), "GIT_OBJECT_DIRECTORY="+g.Objects())
	return append(without(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES="), "GIT_ALTERNATE_OBJECT_DIRECTORIES="+filepath.Join(g.Common, "objects"))
}
