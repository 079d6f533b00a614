package netproxy_test

import (
	"bytes"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"agentdesk/backend/netproxy"
)

// bridge stands in for the forwarder inside the command's namespace: a TCP port on 127.0.0.1
// whose connections go to the proxy's socket. It returns the port's address.
func bridge(t testing.TB, p *netproxy.Proxy) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				u, err := net.Dial("unix", p.Path())
				if err != nil {
					return
				}
				defer u.Close()
				wg.Add(1)
				go func() {
					defer wg.Done()
					io.Copy(u, c)
					u.(*net.UnixConn).CloseWrite()
				}()
				io.Copy(c, u)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	return ln.Addr().String()
}

// curl runs curl with only the proxy it is given (no proxy variables from the environment).
func curl(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("curl", append([]string{"--silent", "--show-error", "--max-time", "10"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// curl, as a command would run it with HTTPS_PROXY/HTTP_PROXY set, gets through to approved
// names and prints the proxy's reason when refused.
func TestCurlThroughTheProxy(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	tlsSrv := httptest.NewTLSServer(hello())
	defer tlsSrv.Close()
	plainSrv := httptest.NewServer(hello())
	defer plainSrv.Close()
	tlsPort, plainPort := serverPort(t, tlsSrv), serverPort(t, plainSrv)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw}), 0o600)

	p := start(t, netproxy.Config{Mode: netproxy.Full, Decide: allow(t, "example.com:"+tlsPort, "example.com:"+plainPort),
		Loopback: netproxy.LoopbackForTests(t, "example.com")})
	proxy := "http://" + bridge(t, p)

	out, errOut, code := curl(t, "--proxy", proxy, "--cacert", ca, "https://example.com:"+tlsPort+"/tls")
	if code != 0 || out != "hello from example.com:"+tlsPort+" /tls" {
		t.Fatalf("https: exit %d, %q, %q", code, out, errOut)
	}
	socks := "socks5h://" + strings.TrimPrefix(proxy, "http://")
	out, errOut, code = curl(t, "--proxy", socks, "--cacert", ca, "https://example.com:"+tlsPort+"/socks")
	if code != 0 || out != "hello from example.com:"+tlsPort+" /socks" {
		t.Fatalf("https through socks5h: exit %d, %q, %q", code, out, errOut)
	}
	_, errOut, code = curl(t, "--proxy", socks, "https://blocked.test/")
	t.Logf("curl through socks5h, refused: %s", errOut)
	if code != 97 || !strings.Contains(errOut, "blocked.test") {
		t.Fatalf("refused through socks5h: exit %d, %q", code, errOut)
	}
	out, errOut, code = curl(t, "--proxy", proxy, "http://example.com:"+plainPort+"/plain")
	if code != 0 || out != "hello from example.com:"+plainPort+" /plain" {
		t.Fatalf("http: exit %d, %q, %q", code, out, errOut)
	}

	// A refused tunnel: curl says 403 and, verbose, shows the reason line.
	_, errOut, code = curl(t, "--verbose", "--proxy", proxy, "https://blocked.test/")
	t.Logf("curl -v through CONNECT, refused: %s", lastLines(errOut, 12))
	if code != 56 || !strings.Contains(errOut, "CONNECT tunnel failed, response 403") ||
		!strings.Contains(errOut, "agentdesk proxy: blocked.test (port 443) is not approved for this session") {
		t.Fatalf("refused https: exit %d, %q", code, errOut)
	}
	// A refused plain request: the reason line is the response curl prints.
	out, _, code = curl(t, "--proxy", proxy, "http://blocked.test/")
	if code != 0 || !strings.HasPrefix(out, "agentdesk proxy: blocked.test (port 80) is not approved") {
		t.Fatalf("refused http: exit %d, %q", code, out)
	}
	out, _, code = curl(t, "--fail", "--proxy", proxy, "http://blocked.test/")
	if code != 22 || out != "" {
		t.Fatalf("refused http with --fail: exit %d, %q", code, out)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
