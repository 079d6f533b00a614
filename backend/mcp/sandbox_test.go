package mcp

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"agentdesk/backend/sandbox"
	"agentdesk/backend/tool"
)

// A stdio server runs under the shell's sandbox: it writes in the workspace only, cannot read
// AgentDesk's data folder, and reaches the network only when the person allowed it.
func TestStdioServerRunsInTheSandbox(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is a Linux feature")
	}
	if st := sandbox.Status(); st.Kind != sandbox.KindLandlock || !st.Network {
		t.Fatalf("this machine must offer Landlock with network rules (TESTING.md): %+v", st)
	}
	th := newTestHost(t)
	th.addFixture("closed", false)
	th.addFixture("open", true)
	secret := filepath.Join(th.dataDir, "secret.txt")
	if err := os.WriteFile(secret, []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside.txt")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	probe := func(server, input string) string {
		t.Helper()
		res, err := th.run("mcp__"+server+"__probe", input, tool.Env{})
		if err != nil {
			t.Fatal(err)
		}
		return res.Output
	}
	if out := probe("closed", `{"read":"`+secret+`"}`); !strings.HasPrefix(out, "read: denied") {
		t.Errorf("the data folder is readable: %s", out)
	}
	if out := probe("closed", `{"write":"`+outside+`"}`); !strings.HasPrefix(out, "write: denied") {
		t.Errorf("a write outside the workspace went through: %s", out)
	}
	if out := probe("closed", `{"write":"inside.txt"}`); out != "write: ok" {
		t.Errorf("a write inside the workspace failed: %s", out)
	}
	if _, err := os.Stat(filepath.Join(th.workspace, "inside.txt")); err != nil {
		t.Errorf("the server does not run in the workspace: %v", err)
	}
	if out := probe("closed", `{"connect":"`+ln.Addr().String()+`"}`); !strings.HasPrefix(out, "connect: denied") {
		t.Errorf("a server without network reached it: %s", out)
	}
	if out := probe("open", `{"connect":"`+ln.Addr().String()+`"}`); out != "connect: ok" {
		t.Errorf("a server allowed the network could not reach it: %s", out)
	}
	if out := probe("open", `{"read":"`+secret+`"}`); !strings.HasPrefix(out, "read: denied") {
		t.Errorf("the network switch opened the data folder: %s", out)
	}
}
