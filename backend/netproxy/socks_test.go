package netproxy_test

import (
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
)

// socks5 opens a SOCKS5 CONNECT to host:port through the proxy's socket, the way a client with
// ALL_PROXY=socks5h:// does (the name unresolved), and returns the reply code and connection.
func socks5(t testing.TB, p *netproxy.Proxy, host string, port int) (byte, net.Conn) {
	t.Helper()
	c, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.Write([]byte{5, 1, 0}) // version 5, one method: no authentication
	choice := make([]byte, 2)
	if _, err := io.ReadFull(c, choice); err != nil || choice[1] != 0 {
		t.Fatalf("method choice %v, %v", choice, err)
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	c.Write(req)
	reply := make([]byte, 10)
	if _, err := io.ReadFull(c, reply); err != nil {
		t.Fatalf("reply: %v", err)
	}
	return reply[1], c
}

func TestSOCKS5(t *testing.T) {
	port := echoServer(t)
	n, _ := strconv.Atoi(port)
	var log events
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "echo.test:"+port, "127.0.0.1:"+port),
		Loopback: netproxy.LoopbackForTests(t, "echo.test"), Log: log.log})

	code, c := socks5(t, p, "echo.test", n)
	if code != 0 {
		t.Fatalf("approved: reply %d", code)
	}
	io.WriteString(c, "through socks")
	buf := make([]byte, len("through socks"))
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "through socks" {
		t.Fatalf("echo %q, %v", buf, err)
	}
	// Refusals are "not allowed by the ruleset" (2); the reason goes to the log.
	if code, _ := socks5(t, p, "other.test", 443); code != 2 {
		t.Fatalf("unapproved: reply %d", code)
	}
	if code, _ := socks5(t, p, "127.0.0.1", n); code != 2 {
		t.Fatalf("loopback literal: reply %d", code)
	}
	readOnly := start(t, netproxy.Config{Mode: netproxy.ReadOnly, Decide: allow(t, "echo.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "echo.test"), Log: log.log})
	if code, _ := socks5(t, readOnly, "echo.test", n); code != 2 {
		t.Fatalf("read-only: reply %d", code)
	}
	want := []errs.Kind{"", netproxy.NotApproved, netproxy.AddressForbidden, netproxy.ReadOnlyTunnel}
	got := log.all()
	if len(got) != len(want) {
		t.Fatalf("events %+v", got)
	}
	for i, ev := range got {
		if ev.Method != "SOCKS5" || (ev.Refusal == nil) != (want[i] == "") || (ev.Refusal != nil && ev.Refusal.Kind != want[i]) {
			t.Fatalf("event %d: %+v, want %q", i, ev, want[i])
		}
	}
}

// A SOCKS5 client that insists on authentication is told no method is acceptable.
func TestSOCKS5WithoutNoAuthIsRefused(t *testing.T) {
	p := start(t, netproxy.Config{Mode: netproxy.Full})
	c, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 2}) // username/password only
	got, _ := io.ReadAll(c)
	if string(got) != "\x05\xff" {
		t.Fatalf("got %q", got)
	}
}

// A SOCKS5 request may name its target by IPv6 address; the address check applies.
func TestSOCKS5IPv6Literal(t *testing.T) {
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "::1")})
	c, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 0})
	io.ReadFull(c, make([]byte, 2))
	c.Write(append(append([]byte{5, 1, 0, 4}, net.IPv6loopback...), 0, 80))
	reply := make([]byte, 10)
	if _, err := io.ReadFull(c, reply); err != nil || reply[1] != 2 {
		t.Fatalf("reply %v, %v", reply, err)
	}
}
