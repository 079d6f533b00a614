//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// detect asks the kernel for its Landlock ABI, then probes the namespaces once.
func detect() Support {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return Support{Kind: KindNone, Reason: landlockMissing(err)}
	}
	s := Support{Kind: KindLandlock, ABI: abi, Network: abi >= 4, Scoped: abi >= 6}
	if err := probeNamespaces(); err != nil {
		s.Reason = "git metadata is not protected: " + err.Error()
	} else {
		s.ProtectGit = true
	}
	return s
}

func landlockMissing(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSYS):
		return "this kernel has no Landlock (it needs Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK)"
	case errors.Is(err, syscall.EOPNOTSUPP):
		return "Landlock is not enabled at boot (add landlock to the lsm= kernel parameter)"
	case err != nil:
		return "Landlock does not answer: " + err.Error()
	}
	return "Landlock reports no ABI version"
}

// probeNamespaces starts the helper in its namespaces once and has it bind a folder read-only:
// user namespaces may be disabled (a sysctl) or stripped of capabilities (AppArmor), and only
// trying tells.
func probeNamespaces() error {
	dir, err := os.MkdirTemp("", "agentdesk-probe-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cmd, err := helperCommand(request{Namespaces: true, Probe: dir}, os.Environ())
	if err != nil {
		return err
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
