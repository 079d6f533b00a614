//go:build linux

package sandbox

import (
	"errors"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// detect asks the kernel for its Landlock ABI, then probes the namespaces once.
func detect() Support {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return Support{Kind: KindNone, Reason: landlockMissing(err)}
	}
	s := Support{Kind: KindLandlock, ABI: abi, Network: abi >= 4, Scoped: abi >= 6, Reaper: "subreaper"}
	if err := probeNamespaces(); err != nil {
		s.Reason = "namespaces are unavailable: " + err.Error()
	} else {
		s.Namespaces, s.ProtectGit, s.Reaper, s.View = true, true, "pid-namespace", DefaultView()
	}
	s.Uncovered = uncovered(s)
	return s
}

// uncovered lists what stays open with the layers this kernel has, as stable ids the doctor and
// Settings translate ("sandbox.uncovered.<id>").
func uncovered(s Support) []string {
	var out []string
	if !s.Namespaces {
		out = append(out, "filesystem", "git", "udp-unix", "processes")
		if s.Network {
			out = append(out, "tcp-by-port")
		} else {
			out = append(out, "tcp")
		}
	}
	if !s.Scoped {
		out = append(out, "scoping")
	}
	return out
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
