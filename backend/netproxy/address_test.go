package netproxy

import (
	"net/netip"
	"testing"
)

// The address classes a command may never reach, including the spellings that hide them.
func TestForbiddenClass(t *testing.T) {
	own := []netip.Addr{netip.MustParseAddr("203.0.113.9")}
	cases := map[string]string{
		"127.0.0.1": classLoopback, "127.8.9.10": classLoopback, "::1": classLoopback,
		"::ffff:127.0.0.1": classLoopback, "10.1.2.3": classPrivate, "172.16.0.1": classPrivate,
		"172.31.255.255": classPrivate, "192.168.1.1": classPrivate, "fc00::1": classPrivate,
		"fd12::1": classPrivate, "169.254.1.1": classLinkLocal, "fe80::1": classLinkLocal,
		"fe80::1%eth0": classLinkLocal, "169.254.169.254": classMetadata, "fd00:ec2::254": classMetadata,
		"0.0.0.0": classUnspecified, "::": classUnspecified, "224.0.0.1": classLinkLocal,
		"ff02::1": classLinkLocal, "ff0e::1": classMulticast, "239.1.2.3": classMulticast, "100.64.0.1": classShared,
		"100.127.255.255": classShared, "0.1.2.3": classReserved, "255.255.255.255": classReserved,
		"203.0.113.9": classOwn, "::ffff:203.0.113.9": classOwn,
		// Public addresses pass.
		"93.184.215.14": "", "172.32.0.1": "", "100.128.0.1": "", "2606:4700::1111": "", "8.8.8.8": "",
	}
	for addr, want := range cases {
		if got := forbiddenClass(netip.MustParseAddr(addr), own); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}

// This machine's own addresses are found (at least its loopback), so a name pointing at one of
// its public addresses would be refused as "own".
func TestOwnAddrsAreRead(t *testing.T) {
	if own := ownAddrs(); !containsAddr(own, netip.MustParseAddr("127.0.0.1")) {
		t.Fatalf("own addresses %v lack 127.0.0.1", own)
	}
}
