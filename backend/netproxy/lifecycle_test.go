package netproxy_test

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/netproxy"
)

// echoServer echoes every connection on 127.0.0.1 and returns its port; everything it started
// ends with the test.
func echoServer(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				io.Copy(c, c)
				c.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// roundTrip sends msg through an open tunnel and reads the echo.
func roundTrip(t testing.TB, r reply, msg string) {
	t.Helper()
	if _, err := io.WriteString(r.conn, msg); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len(msg))
	if _, err := io.ReadFull(r.reader, buf); err != nil || string(buf) != msg {
		t.Fatalf("echo: %q, %v", buf, err)
	}
}

func closeWithin(t *testing.T, p *netproxy.Proxy, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		p.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("Close did not return within %v", d)
	}
}

// Close cuts a tunnel in the middle of its life, and waits for its goroutines (TestMain's leak
// check fails the package otherwise).
func TestCloseCutsOpenTunnels(t *testing.T) {
	port := echoServer(t)
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "echo.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "echo.test")})
	var tunnels []reply
	for range 3 {
		r := send(t, p, connectRaw("echo.test:"+port))
		if r.status != 200 {
			t.Fatalf("CONNECT: %d %q", r.status, r.body)
		}
		roundTrip(t, r, "ping")
		tunnels = append(tunnels, r)
	}
	closeWithin(t, p, 5*time.Second)
	for _, r := range tunnels {
		r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := r.reader.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the tunnel outlived Close: %v", err)
		}
	}
	if _, err := os.Stat(p.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket outlived Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// The policy may wait for the person while the connection waits; the approval lets this very
// connection through.
func TestConnectionWaitsForTheDecision(t *testing.T) {
	port := echoServer(t)
	asked, answer := make(chan string, 1), make(chan netproxy.Verdict)
	decide := func(ctx context.Context, host string, _ int) netproxy.Verdict {
		asked <- host
		select {
		case v := <-answer:
			return v
		case <-ctx.Done():
			return netproxy.Verdict{}
		}
	}
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: decide, Loopback: netproxy.LoopbackForTests(t, "wait.test")})
	go func() {
		if <-asked == "wait.test" {
			answer <- netproxy.Approve()
		} else {
			answer <- netproxy.Verdict{}
		}
	}()
	r := send(t, p, connectRaw("wait.test:"+port))
	if r.status != 200 {
		t.Fatalf("CONNECT after approval: %d %q", r.status, r.body)
	}
	roundTrip(t, r, "approved")
}

// Close ends a decision that is still waiting, through its context.
func TestCloseCancelsAWaitingDecision(t *testing.T) {
	entered, ended := make(chan struct{}), make(chan error, 1)
	decide := func(ctx context.Context, _ string, _ int) netproxy.Verdict {
		close(entered)
		<-ctx.Done()
		ended <- ctx.Err()
		return netproxy.Approve() // too late: the proxy must not act on it
	}
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: decide})
	conn, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, connectRaw("late.test:443"))
	<-entered
	closeWithin(t, p, 5*time.Second)
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("the decision's context: %v", err)
	}
}

// Many tunnels at once, under the race detector.
func TestConcurrentTunnels(t *testing.T) {
	port := echoServer(t)
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "echo.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "echo.test")})
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- tunnelOnce(p.Path(), "echo.test:"+port, strconv.Itoa(i))
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Listen refuses a socket folder others can enter, and anything but a stale socket at the path.
func TestListenInsistsOnAPrivateFolder(t *testing.T) {
	dir := shortDir(t)
	open := filepath.Join(dir, "open")
	os.Mkdir(open, 0o755)
	_, err := netproxy.Listen(filepath.Join(open, "s"), netproxy.Config{})
	wantKind(t, err, netproxy.FolderNotPrivate)

	file := filepath.Join(dir, "private", "f")
	os.Mkdir(filepath.Dir(file), 0o700)
	os.WriteFile(file, nil, 0o600)
	_, err = netproxy.Listen(file, netproxy.Config{})
	wantKind(t, err, netproxy.ListenFailed)

	path := filepath.Join(dir, "fresh", "s")
	first, err := netproxy.Listen(path, netproxy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	folder, _ := os.Stat(filepath.Dir(path))
	socket, _ := os.Stat(path)
	if folder.Mode().Perm() != 0o700 || socket.Mode().Perm() != 0o600 {
		t.Fatalf("folder %v, socket %v", folder.Mode(), socket.Mode())
	}
	// A socket left by a crashed proxy is replaced.
	second, err := netproxy.Listen(path, netproxy.Config{})
	if err != nil {
		t.Fatalf("over a stale socket: %v", err)
	}
	defer second.Close()
}

// A command that gives up (killed, timed out) withdraws its question: the decision's context
// ends, so the app can take the prompt down.
func TestHangingUpCancelsAWaitingDecision(t *testing.T) {
	for _, raw := range []string{connectRaw("gone.test:443"), getRaw("GET", "http://gone.test/")} {
		entered, ended := make(chan struct{}), make(chan error, 1)
		decide := func(ctx context.Context, _ string, _ int) netproxy.Verdict {
			close(entered)
			select {
			case <-ctx.Done():
				ended <- ctx.Err()
			case <-time.After(5 * time.Second):
				ended <- errors.New("still waiting 5 s after the command hung up")
			}
			return netproxy.Verdict{}
		}
		p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: decide})
		conn, err := net.Dial("unix", p.Path())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, raw)
		<-entered
		conn.Close()
		if err := <-ended; !errors.Is(err, context.Canceled) {
			t.Fatalf("%q: %v", raw, err)
		}
	}
}

// A tunnel carries a large upload and its answer, and passes a half close on: the command that
// finishes sending still reads everything that comes back.
func TestTunnelCarriesHalfClose(t *testing.T) {
	port := echoServer(t)
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "echo.test:"+port),
		Loopback: netproxy.LoopbackForTests(t, "echo.test")})
	r := send(t, p, connectRaw("echo.test:"+port))
	if r.status != 200 {
		t.Fatalf("CONNECT: %d %q", r.status, r.body)
	}
	payload := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	go func() {
		io.WriteString(r.conn, payload)
		r.conn.(*net.UnixConn).CloseWrite()
	}()
	got, err := io.ReadAll(r.reader)
	if err != nil || len(got) != len(payload) || string(got) != payload {
		t.Fatalf("read %d of %d bytes back: %v", len(got), len(payload), err)
	}
}

// The test hook skips only the address check: the name still needs approval and the mode.
func TestLoopbackHookStillNeedsApprovalAndMode(t *testing.T) {
	port := echoServer(t)
	loop := netproxy.LoopbackForTests(t, "echo.test")
	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "other.test"), Loopback: loop})
	if r := send(t, p, connectRaw("echo.test:"+port)); r.kind != string(netproxy.NotApproved) {
		t.Fatalf("unapproved: %d %s", r.status, r.kind)
	}
	q := start(t, netproxy.Config{Mode: netproxy.ReadOnly, Decide: allow(t, "echo.test:"+port), Loopback: loop})
	if r := send(t, q, connectRaw("echo.test:"+port)); r.kind != string(netproxy.ReadOnlyTunnel) {
		t.Fatalf("read-only: %d %s", r.status, r.kind)
	}
	// A Loopback not made by LoopbackForTests opens nothing.
	z := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "echo.test:"+port),
		Resolver: resolveTo(map[string]string{"echo.test": "127.0.0.1"}), Loopback: &netproxy.Loopback{}})
	if r := send(t, z, connectRaw("echo.test:"+port)); r.kind != string(netproxy.AddressForbidden) {
		t.Fatalf("a zero Loopback: %d %s", r.status, r.kind)
	}
}

// Close does not wait for connections that never say anything, nor for a SOCKS5 client that
// stopped halfway through its greeting.
func TestCloseCutsSilentConnections(t *testing.T) {
	p := start(t, netproxy.Config{Mode: netproxy.Full})
	silent, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	half, err := net.Dial("unix", p.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	half.Write([]byte{5, 3}) // three methods announced, none sent
	time.Sleep(50 * time.Millisecond)
	closeWithin(t, p, 5*time.Second)
	for _, c := range []net.Conn{silent, half} {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("a connection outlived Close: %v", err)
		}
	}
}
