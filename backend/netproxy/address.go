package netproxy

import (
	"context"
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"

	"agentdesk/backend/errs"
)

// Resolver finds a name's addresses. *net.Resolver is one; tests hand in a map.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Address classes a command may never reach, whatever the person approved: a name that points
// at one of them is how a command would get at the machine's own services, the local network or
// the cloud's credentials through an approved-looking host.
const (
	classLoopback    = "loopback"
	classLinkLocal   = "link-local"
	classPrivate     = "private"
	classUnspecified = "unspecified"
	classMulticast   = "multicast"
	classShared      = "shared (carrier-grade NAT)"
	classMetadata    = "cloud metadata"
	classReserved    = "reserved"
	classOwn         = "this machine's own"
)

var (
	// Metadata services answer with credentials; they also fall in link-local and private, but
	// naming them makes the refusal say what was at stake.
	metadataAddrs = []netip.Addr{netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("fd00:ec2::254")}
	sharedRange   = netip.MustParsePrefix("100.64.0.0/10")
	// 0.0.0.0/8 reaches this host on Linux; 240.0.0.0/4 (with the broadcast address) is not
	// routable on the Internet.
	reservedRanges = []netip.Prefix{netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("240.0.0.0/4")}
)

// forbiddenClass names the class of a forbidden address, or "" when a command may reach it.
// own lists this machine's interface addresses.
func forbiddenClass(a netip.Addr, own []netip.Addr) string {
	a = a.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	switch {
	case a.Zone() != "":
		return classLinkLocal
	case containsAddr(metadataAddrs, a):
		return classMetadata
	case a.IsLoopback():
		return classLoopback
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return classLinkLocal
	case a.IsPrivate():
		return classPrivate
	case a.IsUnspecified():
		return classUnspecified
	case a.IsMulticast():
		return classMulticast
	case sharedRange.Contains(a):
		return classShared
	case inAnyPrefix(reservedRanges, a):
		return classReserved
	case containsAddr(own, a):
		return classOwn
	}
	return ""
}

func containsAddr(list []netip.Addr, a netip.Addr) bool {
	for _, b := range list {
		if b.Unmap() == a {
			return true
		}
	}
	return false
}

func inAnyPrefix(list []netip.Prefix, a netip.Addr) bool {
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ownAddrs lists this machine's interface addresses, read at each check: a laptop's addresses
// change as it moves between networks.
func ownAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out
}

func isIPLiteral(host string) bool {
	_, err := netip.ParseAddr(host)
	return err == nil
}

// target is one destination a command asked for: a normalized host and a port.
type target struct {
	host string
	port int
}

// addresses resolves t's host once and checks every answer. It refuses the whole name when any
// answer is forbidden, since a name that mixes public and private answers is how a rebinding
// attack looks; the caller dials only the addresses returned, never the name again.
func (p *Proxy) addresses(ctx context.Context, t target) ([]netip.Addr, *errs.Error) {
	if p.loopback.covers(t.host) {
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}, nil
	}
	if a, ok := p.localService(t); ok {
		return []netip.Addr{a}, nil
	}
	addrs, err := p.lookup(ctx, t.host)
	if err != nil {
		return nil, errs.Wrap(ResolveFailed, err, "Host", t.host, "Problem", problem(err))
	}
	own := ownAddrs()
	for _, a := range addrs {
		if class := forbiddenClass(a, own); class != "" {
			return nil, errs.New(AddressForbidden, "Host", t.host, "Address", a.Unmap().String(), "Class", class)
		}
	}
	return addrs, nil
}

func (p *Proxy) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := p.resolver.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return addrs, err
}

// dialTimeout bounds one connection attempt (a download may then take as long as it takes),
// resolveTimeout one resolution: a command waiting on a dead resolver should hear why.
const (
	dialTimeout    = 30 * time.Second
	resolveTimeout = 10 * time.Second
)

// dialChecked connects to the first of the checked addresses that answers.
func dialChecked(ctx context.Context, t target, addrs []netip.Addr) (net.Conn, *errs.Error) {
	d := net.Dialer{Timeout: dialTimeout}
	var last error
	for _, a := range addrs {
		conn, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), uint16(t.port)).String())
		if err == nil {
			return conn, nil
		}
		last = err
	}
	return nil, errs.Wrap(DialFailed, last, "Host", t.host, "Problem", problem(last))
}

// problem is an error's last, most specific part ("connection refused"), short enough for the
// refusal's one line.
func problem(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// localService is the loopback address of a request for a local service the person named
// (Config.LocalPorts): localhost, 127.0.0.1 or ::1 at one of those ports, never resolved.
func (p *Proxy) localService(t target) (netip.Addr, bool) {
	if !slices.Contains(p.local, t.port) {
		return netip.Addr{}, false
	}
	switch t.host {
	case "localhost", "127.0.0.1":
		return netip.AddrFrom4([4]byte{127, 0, 0, 1}), true
	case "::1":
		return netip.IPv6Loopback(), true
	}
	return netip.Addr{}, false
}
