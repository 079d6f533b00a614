//go:build linux

package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A file system mounted over a folder between two decisions: the next decision must see what
// the mount shows. The mount happens in a child of the test in its own user and
// mount namespace, so nothing of it reaches the machine.
func TestFreshAFolderMountedOver(t *testing.T) {
	if os.Getenv("POLICY_MOUNT_CHILD") == "1" {
		mountedOverChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFreshAFolderMountedOver$", "-test.v")
	cmd.Env = append(os.Environ(), "POLICY_MOUNT_CHILD=1")
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Skipf("no user and mount namespace here: %v", err)
		}
		t.Fatalf("child: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

func mountedOverChild(t *testing.T) {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		t.Skipf("cannot make mounts private: %v", err)
	}
	ws, outside := freshWorkspace(t)
	wantDecision(t, ws, "cat src/a.go", DecideAllow)
	wantDecision(t, ws, "cat src/*", DecideAllow)
	src := filepath.Join(ws, "src")
	if err := unix.Mount("tmpfs", src, "tmpfs", 0, ""); err != nil {
		t.Skipf("cannot mount: %v", err)
	}
	defer unix.Unmount(src, 0)
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(src, "a.go")))
	wantDecision(t, ws, "cat src/a.go", DecideAsk)
	wantDecision(t, ws, "cat src/*", DecideAsk)
}
