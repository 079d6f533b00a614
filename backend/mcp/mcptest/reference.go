package mcptest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The MCP protocol's own reference servers (github.com/modelcontextprotocol/servers), installed
// from npm by `bash build/scripts/setup.sh test` into backend/mcp/testdata/node. They are
// independent implementations (the TypeScript SDK): what AgentDesk does against them is what it
// does against servers people really install.

// referenceDir is where setup.sh installs the reference servers, relative to the repository root.
const referenceDir = "backend/mcp/testdata/node/node_modules/@modelcontextprotocol"

// ReferenceServer is the absolute path of the entry script (dist/index.js) of the reference
// server name ("server-everything", "server-filesystem"). A server that is not installed fails
// the test: the test set-up installs it, so its absence is a broken set-up, not a reason to skip.
func ReferenceServer(tb testing.TB, name string) string {
	tb.Helper()
	root, err := repoRoot()
	if err != nil {
		tb.Fatal(err)
	}
	script := filepath.Join(root, filepath.FromSlash(referenceDir), name, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		tb.Fatalf("the MCP reference server %s is not installed (%v): run `bash build/scripts/setup.sh test`", name, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		tb.Fatalf("node is not on PATH (%v): run `bash build/scripts/setup.sh test`", err)
	}
	return script
}

// repoRoot walks up from the working folder to the folder holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working folder")
		}
		dir = parent
	}
}

// EverythingHTTP starts server-everything over Streamable HTTP (`node dist/index.js
// streamableHttp` with PORT set) on a free port, waits until it accepts connections, and returns
// its endpoint, http://127.0.0.1:PORT/mcp (transports/streamableHttp.js serves /mcp, and
// app.listen(PORT) binds every interface, so the loopback address reaches it). The server is
// killed when the test ends; its output is logged when the test failed.
func EverythingHTTP(tb testing.TB) string {
	tb.Helper()
	script := ReferenceServer(tb, "server-everything")
	// A port found free may be taken before node binds it: try again on EADDRINUSE.
	var problems []string
	for range 3 {
		url, err := startEverythingHTTP(tb, script)
		if err == nil {
			return url
		}
		problems = append(problems, err.Error())
	}
	tb.Fatalf("server-everything over Streamable HTTP did not start:\n%s", strings.Join(problems, "\n"))
	return ""
}

func startEverythingHTTP(tb testing.TB, script string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	out := &lockedBuffer{}
	cmd := exec.Command("node", script, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	stop := func() {
		_ = cmd.Process.Kill() // node itself: the server starts no process of its own
		<-exited
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case <-exited:
			return "", fmt.Errorf("node exited before listening on %d: %s", port, out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			stop()
			return "", fmt.Errorf("not listening on %d after 20 s: %s", port, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Cleanup(func() {
		stop()
		if tb.Failed() {
			tb.Logf("server-everything (streamableHttp, port %d) wrote:\n%s", port, out.String())
		}
	})
	return "http://" + addr + "/mcp", nil
}

// freePort is a TCP port nothing listens on at the moment.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lockedBuffer collects a process's output, safe to read while it writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
