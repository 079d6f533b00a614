//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// useNamespaces starts the helper in new user, mount, PID and IPC namespaces, and a network
// namespace unless the command was allowed the network. Its own user and group map to
// themselves. The helper needs CAP_SYS_ADMIN there for its mounts and pivot_root, CAP_NET_ADMIN
// to bring up lo and CAP_SETPCAP to drop root's capabilities; a non-root user loses every
// capability at the exec that starts the helper unless they are ambient. The flags must be set
// at spawn: a multithreaded Go process cannot unshare its user namespace.
func useNamespaces(cmd *exec.Cmd, newNet bool) {
	uid, gid := os.Getuid(), os.Getgid()
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC)
	if newNet {
		flags |= syscall.CLONE_NEWNET
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Cloneflags = flags
	cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	cmd.SysProcAttr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN}
}

// probeNamespaces starts the helper once in its namespaces on a scratch workspace holding a .git
// folder and has it check what it built: user namespaces may be disabled (a sysctl) or
// stripped of capabilities (AppArmor), and only trying tells.
func probeNamespaces() error {
	dir, err := os.MkdirTemp("", "agentdesk-probe-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p := Policy{Workspace: filepath.Join(dir, "ws"), TempDir: filepath.Join(dir, "tmp")}
	for _, d := range []string{filepath.Join(p.Workspace, ".git"), p.TempDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	req := request{Policy: p, Namespaces: true, NewNet: true, View: DefaultView(), Probe: true}
	cmd, err := helperCommand(req, os.Environ())
	if err != nil {
		return err
	}
	cmd.Dir = p.Workspace
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v %s", err, out)
	}
	return nil
}

// probed is the helper's answer to the probe, inside everything it built: it is the first
// process of its PID namespace, .git refuses a write, and the old root is gone.
func probed(p Policy) error {
	if os.Getpid() != 1 {
		return fmt.Errorf("not the first process of a PID namespace (pid %d)", os.Getpid())
	}
	err := os.WriteFile(filepath.Join(p.Workspace, ".git", "probe"), nil, 0o600)
	if !errors.Is(err, unix.EROFS) {
		return fmt.Errorf("a read-only .git accepted a write (%v)", err)
	}
	if _, err := os.Stat("/.oldroot"); !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the old root is still reachable (%v)", err)
	}
	os.Exit(0)
	return nil
}
