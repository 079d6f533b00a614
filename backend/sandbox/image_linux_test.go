//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/sandbox/sandboxtest"
)

const imageEnv = "AGENTDESK_TEST_HELPER_IMAGE"

// The embedded static helper confines exactly like a re-execution of the app. It runs in a child
// test process, because the image, once used, serves every later command of the process.
func TestEmbeddedHelperConfinesLikeTheApp(t *testing.T) {
	requireLandlock(t)
	path := filepath.Join(t.TempDir(), "helper")
	if err := os.WriteFile(path, sandboxtest.BuildHelper(t), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEmbeddedHelperChild$", "-test.v")
	cmd.Env = append(os.Environ(), imageEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestEmbeddedHelperChild") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// TestEmbeddedHelperChild is the child of the test above; alone it has nothing to check.
func TestEmbeddedHelperChild(t *testing.T) {
	file := os.Getenv(imageEnv)
	if file == "" {
		t.Skip("runs as the child of TestEmbeddedHelperConfinesLikeTheApp")
	}
	program, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	hooked.Store(false) // the image alone must be enough: this binary is not the helper now
	UseHelperImage(program)
	p := policy(t)
	p.DataDir = t.TempDir()
	if err := os.WriteFile(filepath.Join(p.DataDir, "agentdesk.db"), []byte("DATA"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, err := Command(p, "/bin/sh", []string{"-c", "true"}, nil)
	if err != nil || !strings.HasPrefix(cmd.Path, "/proc/self/fd/") {
		t.Fatalf("the command does not run the sealed image: %v %v", cmd, err)
	}
	// Sealed: no one, this process included, can change what the next command runs.
	if f, err := os.OpenFile(cmd.Path, os.O_WRONLY, 0); err == nil {
		_, werr := f.Write([]byte("x"))
		f.Close()
		if werr == nil {
			t.Fatal("the helper image took a write")
		}
	}
	mustSh(t, p, "echo in > inside.txt")
	outside := t.TempDir()
	if out, err := sh(t, p, "echo x > "+filepath.Join(outside, "x")); err == nil {
		t.Fatalf("a write outside the workspace succeeded through the image: %q", out)
	}
	if out, _ := sh(t, p, "cat "+filepath.Join(p.DataDir, "agentdesk.db")); strings.Contains(out, "DATA") {
		t.Fatalf("the data folder is readable through the image: %q", out)
	}
	if out, _ := sh(t, p, "ls -l /proc/$$/fd"); strings.Contains(out, "agentdesk-sandbox") {
		t.Fatalf("the shell inherited the image's descriptor: %q", out)
	}
}
