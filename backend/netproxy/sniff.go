package netproxy

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// handshakeTimeout bounds how long a connection may take to say what it wants; idleTimeout how
// long a command's kept-alive connection may sit unused between forward requests.
const (
	handshakeTimeout = 30 * time.Second
	idleTimeout      = 2 * time.Minute
)

// acceptLoop takes every connection and hands each, by its first byte, to SOCKS5 or to the
// HTTP server: one socket serves both, so a bridge needs one port for HTTP_PROXY and ALL_PROXY.
func (p *Proxy) acceptLoop(ln net.Listener) {
	defer close(p.accepted)
	for {
		c, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil { // out of descriptors, say: let some close before trying again
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if !p.begin() {
			c.Close()
			return
		}
		go func() {
			defer p.end()
			p.route(c)
		}()
	}
}

// route reads the first byte: 5 is a SOCKS5 greeting, anything else the start of an HTTP
// request line.
func (p *Proxy) route(c net.Conn) {
	if !p.track(c) { // so Close cuts a connection that never speaks
		c.Close()
		return
	}
	c.SetReadDeadline(time.Now().Add(handshakeTimeout))
	first := make([]byte, 1)
	if _, err := io.ReadFull(c, first); err != nil {
		p.untrack(c)
		c.Close()
		return
	}
	if first[0] == socks5Version {
		defer p.untrack(c)
		p.serveSOCKS(c)
		return
	}
	p.untrack(c) // from here the HTTP server tracks it, and closes it on Close
	c.SetReadDeadline(time.Time{})
	if !p.httpConns.push(&prefixConn{Conn: c, first: first}) {
		c.Close()
	}
}

// prefixConn gives back the byte route read before the rest of the connection.
type prefixConn struct {
	net.Conn
	first []byte
}

func (c *prefixConn) Read(b []byte) (int, error) {
	if len(c.first) > 0 {
		n := copy(b, c.first)
		c.first = c.first[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// unwrap returns the connection under a prefixConn whose byte has been read, so a tunnel copies
// between the kernel's own sockets (splice, no buffer of ours) instead of through a wrapper.
func unwrap(c net.Conn) net.Conn {
	if pc, ok := c.(*prefixConn); ok && len(pc.first) == 0 {
		return pc.Conn
	}
	return c
}

// CloseWrite keeps the half close a tunnel passes on.
func (c *prefixConn) CloseWrite() error {
	if hc, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return hc.CloseWrite()
	}
	return c.Conn.Close()
}

// connQueue is the listener the HTTP server serves: the connections route found to be HTTP.
type connQueue struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newConnQueue(addr net.Addr) *connQueue {
	return &connQueue{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

func (q *connQueue) Accept() (net.Conn, error) {
	select {
	case c := <-q.conns:
		return c, nil
	case <-q.done:
		return nil, net.ErrClosed
	}
}

// push hands c to the server; false once the server is closed.
func (q *connQueue) push(c net.Conn) bool {
	select {
	case q.conns <- c:
		return true
	case <-q.done:
		return false
	}
}

func (q *connQueue) Close() error {
	q.once.Do(func() { close(q.done) })
	return nil
}

func (q *connQueue) Addr() net.Addr { return q.addr }
