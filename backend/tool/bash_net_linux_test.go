//go:build linux

package tool

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/mode"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/netproxy/netproxytest"
	"agentdesk/backend/sandbox"
)

// With namespaces the network is AgentDesk's proxy or nothing: a command the person let reach
// the network gets an approved name through it, and nothing else — not an unapproved name, not
// the host's loopback directly, not UDP, not a Unix socket outside the workspace, not ~/.ssh.
func TestBashNetworkIsTheProxyAndNothingElse(t *testing.T) {
	requireSandbox(t)
	if !sandbox.Status().Namespaces {
		t.Fatalf("namespaces should work here: %s", sandbox.Status().Reason)
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "served")
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	allow, err := netproxytest.NewAllowlist(fmt.Sprintf("approved.test:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	opts := ShellOptions{Network: true, Proxy: &netproxy.Config{Mode: netproxy.Full, Decide: allow.Decide,
		Loopback: netproxy.LoopbackForTests(t, "approved.test", "unapproved.test")}}
	curl := func(url string, extra ...string) Result {
		cmd := "curl -sS --max-time 5 " + strings.Join(extra, " ") + " " + url
		return mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir(), Shell: opts}, bashInputOf(t, cmd, 0))
	}
	if res := curl(fmt.Sprintf("http://approved.test:%d/", port)); res.IsError || !strings.Contains(res.Output, "served") {
		t.Fatalf("the approved name was not reached through the proxy: %q", res.Output)
	}
	if res := curl(fmt.Sprintf("http://unapproved.test:%d/", port)); strings.Contains(res.Output, "served") ||
		!strings.Contains(res.Output, "not approved") {
		t.Fatalf("an unapproved name was reached, or the refusal did not say why: %q", res.Output)
	}
	if res := curl(srv.URL, "--noproxy '*'"); !res.IsError || strings.Contains(res.Output, "served") {
		t.Fatalf("the host's loopback was reached around the proxy: %q", res.Output)
	}
	if hits.Load() != 1 {
		t.Fatalf("the server saw %d requests, want 1 (the approved name)", hits.Load())
	}
	assertNoOtherChannel(t, opts)
}

// assertNoOtherChannel: UDP to a listener on the host's loopback, a Unix socket outside the
// workspace and the person's ~/.ssh are out of reach, network or not.
func assertNoOtherChannel(t *testing.T, opts ShellOptions) {
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	home := t.TempDir()
	t.Setenv("HOME", home)
	mustWriteFile(t, filepath.Join(home, ".ssh", "id_ed25519"), "secret key")
	sockDir := t.TempDir()
	unixLn, err := net.Listen("unix", filepath.Join(sockDir, "daemon.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unixLn.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := unixLn.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	cmd := fmt.Sprintf(`cat ~/.ssh/id_ed25519; echo secret key > /dev/udp/127.0.0.1/%d; python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("%s")'; ls /run/user`,
		udp.LocalAddr().(*net.UDPAddr).Port, filepath.Join(sockDir, "daemon.sock"))
	res := mustRun(t, mode.ToolBash, Env{Workspace: t.TempDir(), Shell: opts}, bashInputOf(t, cmd, 0))
	if strings.Contains(res.Output, "secret key") {
		t.Errorf("~/.ssh was read: %q", res.Output)
	}
	_ = udp.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, _, err := udp.ReadFrom(make([]byte, 64)); err == nil {
		t.Errorf("a UDP datagram of %d bytes left the sandbox", n)
	}
	select {
	case <-accepted:
		t.Errorf("a Unix socket outside the workspace was reached: %q", res.Output)
	case <-time.After(100 * time.Millisecond):
	}
}

func mustWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
