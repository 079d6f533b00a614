package netproxy

import (
	"io"
	"net"
	"net/http"
	"net/netip"
	"time"

	"agentdesk/backend/errs"
)

// serveConnect opens a tunnel: the command's bytes (TLS, most often) pass through unread.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	t, perr := parseTarget(r.Host, 0)
	if perr != nil {
		p.refuseAndRecord(w, http.MethodConnect, t, perr)
		return
	}
	addrs, refusal := p.admit(r.Context(), request{method: http.MethodConnect, target: t, tunnel: true})
	if refusal != nil {
		p.refuseAndRecord(w, http.MethodConnect, t, refusal)
		return
	}
	upstream, refusal := dialChecked(r.Context(), t, addrs)
	if refusal != nil {
		p.refuseAndRecord(w, http.MethodConnect, t, refusal)
		return
	}
	p.record(http.MethodConnect, t, remoteAddr(upstream), nil)
	p.tunnel(w, upstream)
}

func (p *Proxy) refuseAndRecord(w http.ResponseWriter, method string, t target, err *errs.Error) {
	p.record(method, t, netip.Addr{}, err)
	p.refuse(w, err)
}

// tunnel answers 200 and copies both ways until both sides are done or the proxy closes.
func (p *Proxy) tunnel(w http.ResponseWriter, upstream net.Conn) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, refusalPrefix+"this connection cannot carry a tunnel", http.StatusInternalServerError)
		return
	}
	client, rw, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	// Bytes the command sent right behind the CONNECT (a TLS hello) may sit in the server's buffer.
	early, _ := rw.Reader.Peek(rw.Reader.Buffered())
	p.splice(client, upstream, "HTTP/1.1 200 Connection established\r\n\r\n", early)
}

// splice answers the client with ok, passes early on, and copies both ways until both sides
// are done or the proxy closes. It closes both connections.
func (p *Proxy) splice(client, upstream net.Conn, ok string, early []byte) {
	defer client.Close()
	defer upstream.Close()
	if !p.track(client, upstream) {
		return
	}
	defer p.untrack(client, upstream)
	client.SetDeadline(time.Time{}) // the handshake's timeout must not cut a long download
	if _, err := io.WriteString(client, ok); err != nil {
		return
	}
	if len(early) > 0 {
		if _, err := upstream.Write(early); err != nil {
			return
		}
	}
	client = unwrap(client)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pipe(upstream, client)
	}()
	pipe(client, upstream)
	<-done
}

// pipe copies src to dst. At src's end it passes the end on as a half close, so a command that
// finishes sending can still read the answer; on an error (a side reset or cut by Close) it
// closes both, which ends the other direction too.
func pipe(dst, src net.Conn) {
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		src.Close()
		return
	}
	if hc, ok := dst.(interface{ CloseWrite() error }); ok && hc.CloseWrite() == nil {
		return
	}
	dst.Close()
}

func remoteAddr(c net.Conn) netip.Addr {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.AddrPort().Addr().Unmap()
	}
	return netip.Addr{}
}
