//go:build linux

package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Access rights, composed from the kernel's flags.
const (
	fileRead   = ll.AccessFSExecute | ll.AccessFSReadFile
	treeRead   = fileRead | ll.AccessFSReadDir
	deviceUse  = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	treeChange = ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeSym
	// Device nodes are never granted: a block device made in the workspace would read the disk.
)

// devices are the device files a shell and its programs commonly open for writing.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// config handles every right this library knows, and lets BestEffort drop what the kernel does
// not: older kernels get fewer restrictions, never an error. Network access is simply not handled
// when allowed, and neither are pathname unix sockets, which reach local services the same way.
// A command with LocalNet in a network namespace of its own (namespaced) may bind and connect
// any port: all it can reach there is its own lo and the proxy's bridge.
func config(p Policy, namespaced bool) landlock.Config {
	cfg := landlock.V11
	if p.Network && p.ProxySocket == "" {
		cfg.HandledAccessNet = 0
		cfg.HandledAccessFS &^= ll.AccessFSResolveUnix
	}
	if p.LocalNet && namespaced && (!p.Network || p.ProxySocket != "") {
		cfg.HandledAccessNet = 0
	}
	return cfg.BestEffort()
}

// rules are the grants: reads (see readable), devices, and change inside the workspace and the
// temp folder, and inside the build caches where the command has its own view (v, nil without
// namespaces).
func rules(p Policy, abi int, v *View) []landlock.Rule {
	rs := readable(p, v)
	rs = append(rs,
		landlock.PathAccess(deviceUse, devices...).IgnoreIfMissing(),
		landlock.PathAccess(deviceUse|ll.AccessFSReadDir, "/dev/pts").IgnoreIfMissing())
	change := landlock.AccessFSSet(treeRead | treeChange)
	if abi >= 2 {
		// Moving a file between folders needs "refer". Under ABI 1 it is always refused, and
		// asking for it there would make BestEffort drop the whole sandbox.
		change |= ll.AccessFSRefer
	}
	for _, dir := range writable(p, v) {
		rs = append(rs, landlock.PathAccess(change, dir))
	}
	if p.ProxySocket != "" && !(p.LocalNet && v != nil) {
		rs = append(rs, landlock.ConnectTCP(ProxyPort)) // the bridge, on the namespace's own lo
	}
	return rs
}

// readable: a read-only command reads the workspace and the toolchain only; a namespaced
// command everything it sees (the view is the limit); otherwise everything but the data folder.
func readable(p Policy, v *View) []landlock.Rule {
	switch {
	case p.ReadOnly:
		toolchain := DefaultView().ReadOnly
		if v != nil {
			toolchain = v.ReadOnly
		}
		return readAccess(append([]string{p.Workspace, "/dev", "/proc"}, toolchain...))
	case v != nil:
		return []landlock.Rule{landlock.PathAccess(treeRead, "/")}
	}
	return readRules(p.DataDir)
}

// readAccess grants read on each path: a folder with everything below it, a file alone (the
// kernel refuses folder rights on a file).
func readAccess(paths []string) []landlock.Rule {
	var dirs, files []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			files = append(files, p)
		} else {
			dirs = append(dirs, p)
		}
	}
	return []landlock.Rule{landlock.PathAccess(treeRead, dirs...).IgnoreIfMissing(),
		landlock.PathAccess(fileRead, files...).IgnoreIfMissing()}
}

// writable lists the folders the command may change.
func writable(p Policy, v *View) []string {
	var dirs []string
	if p.TempDir != "" {
		dirs = append(dirs, p.TempDir)
	}
	if p.ReadOnly {
		return dirs
	}
	if v != nil {
		dirs = append(dirs, v.ReadWrite...)
	}
	if p.Workspace != "" && !p.WorkspaceReadOnly {
		dirs = append(dirs, p.Workspace)
	}
	if p.Task != nil && v != nil {
		dirs = append(dirs, p.Task.writable()...)
	}
	return dirs
}

// readRules grants read on "/" when nothing is hidden, else on every sibling along the path to
// the data folder, plus readdir everywhere so listing folders keeps working.
func readRules(hidden string) []landlock.Rule {
	dirs, files, ok := siblings(hidden)
	if !ok {
		return []landlock.Rule{landlock.PathAccess(treeRead, "/")}
	}
	return []landlock.Rule{
		landlock.PathAccess(ll.AccessFSReadDir, "/"),
		landlock.PathAccess(treeRead, dirs...).IgnoreIfMissing(),
		landlock.PathAccess(fileRead, files...).IgnoreIfMissing(),
	}
}

// siblings lists, in each folder from "/" down to hidden's parent, every entry except the one on
// the way to hidden, split into folders and other files. Symbolic links are left out: reading
// through one is checked against its target. ok is false when there is nothing to hide (no data
// folder, or it does not exist) or a folder on the way cannot be listed.
func siblings(hidden string) (dirs, files []string, ok bool) {
	if hidden == "" {
		return nil, nil, false
	}
	real, err := filepath.EvalSymlinks(hidden)
	if err != nil || !filepath.IsAbs(real) || real == "/" {
		return nil, nil, false
	}
	parent := "/"
	for _, part := range strings.Split(strings.TrimPrefix(real, "/"), "/") {
		entries, err := os.ReadDir(parent)
		if err != nil {
			return nil, nil, false
		}
		for _, e := range entries {
			path := filepath.Join(parent, e.Name())
			switch {
			case e.Name() == part || e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				dirs = append(dirs, path)
			default:
				files = append(files, path)
			}
		}
		parent = filepath.Join(parent, part)
	}
	return dirs, files, true
}
