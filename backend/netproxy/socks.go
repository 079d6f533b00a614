package netproxy

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"strconv"

	"agentdesk/backend/errs"
)

// SOCKS5 (RFC 1928), CONNECT only and without authentication: what ALL_PROXY=socks5h://
// clients send. The name travels to the proxy unresolved ("remote resolution"), so the same
// policy and checks apply as to CONNECT. SOCKS has no room for a reason: a refused command sees
// only the reply code; the Log event carries the reason.
const (
	socks5Version   = 0x05
	methodSOCKS     = "SOCKS5"
	socksNoAuth     = 0x00
	socksNoMethod   = 0xff
	socksCmdConnect = 0x01
	socksAtypIPv4   = 0x01
	socksAtypName   = 0x03
	socksAtypIPv6   = 0x04
)

// SOCKS5 reply codes.
const (
	socksSucceeded           = 0x00
	socksGeneralFailure      = 0x01
	socksNotAllowed          = 0x02
	socksHostUnreachable     = 0x04
	socksConnectionRefused   = 0x05
	socksCommandNotSupported = 0x07
	socksAddressNotSupported = 0x08
	// socksAnswered is no code: the refusal was already written (no acceptable method).
	socksAnswered = 0xff
)

// serveSOCKS serves one SOCKS5 connection whose version byte route has read.
func (p *Proxy) serveSOCKS(c net.Conn) {
	defer c.Close()
	t, code, refusal := readSOCKSRequest(c)
	if refusal != nil {
		p.record(methodSOCKS, t, netip.Addr{}, refusal)
		writeSOCKSReply(c, code)
		return
	}
	// A SOCKS client that hangs up while the person decides is not noticed until the answer:
	// reading to find out would swallow the bytes of the tunnel that may follow.
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	addrs, refusal := p.admit(ctx, request{method: methodSOCKS, target: t, tunnel: true})
	if refusal == nil {
		var upstream net.Conn
		if upstream, refusal = dialChecked(ctx, t, addrs); refusal == nil {
			p.record(methodSOCKS, t, remoteAddr(upstream), nil)
			p.splice(c, upstream, string(socksReply(socksSucceeded)), nil)
			return
		}
	}
	p.record(methodSOCKS, t, netip.Addr{}, refusal)
	writeSOCKSReply(c, socksCode(refusal.Kind))
}

// readSOCKSRequest reads the greeting, agrees to no authentication and reads the request.
func readSOCKSRequest(c net.Conn) (target, byte, *errs.Error) {
	bad := func(code byte, problem string) (target, byte, *errs.Error) {
		return target{}, code, errs.New(BadRequest, "Problem", problem)
	}
	methods, err := readCounted(c)
	if err != nil {
		return bad(socksGeneralFailure, "a broken SOCKS5 greeting")
	}
	if !bytes.Contains(methods, []byte{socksNoAuth}) {
		c.Write([]byte{socks5Version, socksNoMethod})
		return target{}, socksAnswered, errs.New(BadRequest, "Problem", "SOCKS5 authentication is not supported")
	}
	if _, err := c.Write([]byte{socks5Version, socksNoAuth}); err != nil {
		return bad(socksGeneralFailure, "the client left")
	}
	head := make([]byte, 4) // version, command, reserved, address type
	if _, err := io.ReadFull(c, head); err != nil || head[0] != socks5Version {
		return bad(socksGeneralFailure, "a broken SOCKS5 request")
	}
	if head[1] != socksCmdConnect {
		return bad(socksCommandNotSupported, "only SOCKS5 CONNECT is supported")
	}
	host, err := readSOCKSHost(c, head[3])
	if err != nil {
		return bad(socksAddressNotSupported, "a SOCKS5 address that cannot be read")
	}
	port := make([]byte, 2)
	if _, err := io.ReadFull(c, port); err != nil {
		return bad(socksGeneralFailure, "a broken SOCKS5 request")
	}
	t, refusal := parseTarget(net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(port)))), 0)
	if refusal != nil {
		return t, socksAddressNotSupported, refusal
	}
	return t, 0, nil
}

func readSOCKSHost(c net.Conn, atyp byte) (string, error) {
	switch atyp {
	case socksAtypIPv4:
		return readSOCKSAddr(c, 4)
	case socksAtypIPv6:
		return readSOCKSAddr(c, 16)
	case socksAtypName:
		name, err := readCounted(c)
		return string(name), err
	}
	return "", errs.New(BadRequest)
}

func readSOCKSAddr(c net.Conn, size int) (string, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(c, b); err != nil {
		return "", err
	}
	a, _ := netip.AddrFromSlice(b)
	return a.String(), nil
}

// readCounted reads a length byte and that many bytes.
func readCounted(c net.Conn) ([]byte, error) {
	n := make([]byte, 1)
	if _, err := io.ReadFull(c, n); err != nil {
		return nil, err
	}
	b := make([]byte, n[0])
	_, err := io.ReadFull(c, b)
	return b, err
}

func socksCode(k errs.Kind) byte {
	switch k {
	case ResolveFailed:
		return socksHostUnreachable
	case DialFailed:
		return socksConnectionRefused
	case BadRequest:
		return socksGeneralFailure
	}
	return socksNotAllowed
}

// socksReply is a reply with an empty bound address, which clients ignore.
func socksReply(code byte) []byte {
	return []byte{socks5Version, code, 0, socksAtypIPv4, 0, 0, 0, 0, 0, 0}
}

func writeSOCKSReply(c net.Conn, code byte) {
	if code != socksAnswered {
		c.Write(socksReply(code))
	}
}
