package netproxy

import (
	"context"
	"net"
	"net/netip"
	"strconv"

	"agentdesk/backend/errs"
)

// request is what the policy judges: the method ("CONNECT" or "SOCKS5" for a tunnel), the
// target, whether it is a tunnel, and whether a forward request asks to switch protocols (a
// WebSocket would carry writes as well).
type request struct {
	method  string
	target  target
	tunnel  bool
	upgrade bool
}

// admit runs the checks in the package's order and returns the addresses to dial.
func (p *Proxy) admit(ctx context.Context, r request) ([]netip.Addr, *errs.Error) {
	if err := p.modeAllows(r); err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	literal := isIPLiteral(r.target.host)
	if literal {
		var err *errs.Error
		if addrs, err = p.addresses(ctx, r.target); err != nil {
			return nil, err
		}
	}
	if err := p.approve(ctx, r.target); err != nil {
		return nil, err
	}
	// The person may have turned the network off while this request waited for them.
	if err := p.modeAllows(r); err != nil {
		return nil, err
	}
	if literal {
		return addrs, nil
	}
	return p.addresses(ctx, r.target)
}

func (p *Proxy) modeAllows(r request) *errs.Error {
	switch p.mode {
	case Full:
		return nil
	case ReadOnly:
		if r.tunnel {
			return errs.New(ReadOnlyTunnel, "Host", r.target.host)
		}
		if !readsOnly(r.method) || r.upgrade {
			return errs.New(ReadOnlyMethod, "Method", r.method, "Host", r.target.host)
		}
		return nil
	}
	return errs.New(NetworkOff, "Host", r.target.host)
}

func (p *Proxy) approve(ctx context.Context, t target) *errs.Error {
	if p.decide == nil {
		return notApproved(t)
	}
	v := p.decide(ctx, t.host, t.port)
	if v.Allow && ctx.Err() == nil {
		return nil
	}
	if v.Refusal != nil {
		return v.Refusal
	}
	return notApproved(t)
}

func notApproved(t target) *errs.Error {
	return errs.New(NotApproved, "Host", t.host, "Port", t.port)
}

// parseTarget reads "host:port" (or a bare host, with defaultPort) into a normalized target.
func parseTarget(hostport string, defaultPort int) (target, *errs.Error) {
	host, portText, err := net.SplitHostPort(hostport)
	if err != nil {
		if defaultPort == 0 {
			return target{}, errs.New(BadRequest, "Problem", "the target "+strconv.Quote(hostport)+" has no port")
		}
		host, portText = hostport, strconv.Itoa(defaultPort)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 1 || port > 65535 {
		return target{}, errs.New(BadRequest, "Problem", "the port "+strconv.Quote(portText)+" is not a port")
	}
	host = NormalHost(host)
	if !ValidHost(host) {
		return target{}, errs.New(BadRequest, "Problem", "the host "+strconv.Quote(host)+" is not a host name")
	}
	return target{host: host, port: port}, nil
}
