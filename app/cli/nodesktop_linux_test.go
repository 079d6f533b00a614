package cli

import (
	"bufio"
	"bytes"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// cliBinaryEnv names a command-line build to test (the Makefile's build/bin/agentdesk, from
// `make test-nogtk`); without it the test builds one the same way, CGO_ENABLED=0 and no desktop tag.
const cliBinaryEnv = "AGENTDESK_CLI_BIN"

// cliBinary is the command-line build under test.
func cliBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(cliBinaryEnv); p != "" {
		return p
	}
	out := filepath.Join(t.TempDir(), "agentdesk")
	args := []string{"build", "-o", out}
	// The sandbox helper is embedded where the Makefile has built it (main_helper.go).
	if _, err := os.Stat("../../build/helper/agentdesk-sandbox"); err == nil {
		args = append(args, "-tags", "sandboxhelper")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the command line: %v\n%s", err, msg)
	}
	return out
}

// rootWithoutLibraries is a file system root that holds the binary, an empty data folder, a
// project folder, the model script and nothing else: no GTK, no WebKit, no C library, no
// /usr at all. Commands run chrooted into it, in a user namespace so no privilege is needed.
type rootWithoutLibraries struct {
	dir string
}

func newRootWithoutLibraries(t *testing.T, bin, script string) *rootWithoutLibraries {
	t.Helper()
	r := &rootWithoutLibraries{dir: t.TempDir()}
	for _, d := range []string{"data", "project", "home", "tmp"} {
		if err := os.Mkdir(filepath.Join(r.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "agentdesk"), raw, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "script.json"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// command is `agentdesk ARGS...` inside the root.
func (r *rootWithoutLibraries) command(args ...string) *exec.Cmd {
	cmd := exec.Command("/agentdesk", args...)
	cmd.Dir = "/"
	cmd.Env = []string{"HOME=/home", "TMPDIR=/tmp", "LANG=C.UTF-8", "PATH=/"}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Chroot:      r.dir,
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
	}
	return cmd
}

// The command line for terminals, editors and servers needs no desktop libraries: the binary
// is static and links no Wails, and serve, run, acp and sessions work in a root that holds
// nothing but it. Only the window asks for the desktop build, and says so when it is missing.
func TestCommandLineRunsWithoutDesktopLibraries(t *testing.T) {
	bin := cliBinary(t)
	const answer = "hello from a root without GTK"
	root := newRootWithoutLibraries(t, bin, `{"responses":[{"text":"`+answer+`"}]}`)

	t.Run("the binary is static and links no Wails", func(t *testing.T) {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("the binary has a %v program header: it is dynamically linked", p.Type)
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("the binary needs %v", libs)
		}
		info, err := buildinfo.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range info.Settings {
			if s.Key == "CGO_ENABLED" && s.Value != "0" || s.Key == "-tags" && strings.Contains(","+s.Value+",", ",desktop,") {
				t.Errorf("built with %s=%s", s.Key, s.Value)
			}
		}
		for _, d := range info.Deps {
			if strings.HasPrefix(d.Path, "github.com/wailsapp/") {
				t.Errorf("the binary links %s", d.Path)
			}
		}
	})

	// The control: the root really lacks the system's libraries, so a dynamically linked program
	// (the system's shell) cannot even start in it.
	t.Run("a dynamic program does not start in the root", func(t *testing.T) {
		raw, err := os.ReadFile("/bin/sh")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root.dir, "sh"), raw, 0o755); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(filepath.Join(root.dir, "sh"))
		cmd := root.command()
		cmd.Path, cmd.Args = "/sh", []string{"/sh", "-c", "true"}
		if err := cmd.Run(); err == nil {
			t.Fatal("the system's shell ran in the root: it holds a dynamic loader and libraries")
		}
	})

	t.Run("run", func(t *testing.T) {
		out, err := root.command("run", "--workspace", "/project", "--script", "/script.json", "--data-dir", "/data", "hi").CombinedOutput()
		if err != nil || !strings.Contains(string(out), answer) {
			t.Fatalf("agentdesk run: %v\n%s", err, out)
		}
	})

	t.Run("sessions", func(t *testing.T) {
		out, err := root.command("sessions", "list", "--json", "--data-dir", "/data").Output()
		if err != nil || strings.Count(string(out), `"id"`) != 1 {
			t.Fatalf("agentdesk sessions list, after one run: %v\n%s", err, out)
		}
	})

	t.Run("serve", func(t *testing.T) {
		cmd := root.command("serve", "--addr", "127.0.0.1:0", "--data-dir", "/data")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			cmd.Process.Signal(os.Interrupt)
			stopped := make(chan struct{})
			go func() { cmd.Wait(); close(stopped) }()
			select {
			case <-stopped:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Error("agentdesk serve did not stop on an interrupt")
			}
		}()
		found := make(chan string, 1)
		go func() {
			lines := bufio.NewScanner(stdout)
			for lines.Scan() {
				if m := regexp.MustCompile(`http://(\S+)/\?token=(\S+)`).FindStringSubmatch(lines.Text()); m != nil {
					found <- m[1] + " " + m[2]
					break
				}
			}
			io.Copy(io.Discard, stdout)
		}()
		var addr, token string
		select {
		case s := <-found:
			addr, token, _ = strings.Cut(s, " ")
		case <-time.After(20 * time.Second):
			t.Fatalf("agentdesk serve printed no address: %s", stderr.String())
		}
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/Sessions.List", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"/project"`) {
			t.Fatalf("Sessions.List over serve: %d %s", resp.StatusCode, body)
		}
	})

	t.Run("acp", func(t *testing.T) {
		cmd := root.command("acp", "--data-dir", "/data", "--script", "/script.json", "--permission", "auto")
		toAgent, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		fromAgent, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c := &acpClient{}
		conn := acp.NewClientSideConnection(c, toAgent, fromAgent)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
			t.Fatalf("initialize: %v\n%s", err, stderr.String())
		}
		s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: "/project", McpServers: []acp.McpServer{}})
		if err != nil {
			t.Fatalf("new session: %v\n%s", err, stderr.String())
		}
		if _, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: s.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("hi")}}); err != nil {
			t.Fatalf("prompt: %v\n%s", err, stderr.String())
		}
		c.mu.Lock()
		text := c.text.String()
		c.mu.Unlock()
		if text != answer {
			t.Fatalf("streamed %q", text)
		}
		toAgent.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("agentdesk acp, its client gone: %v\n%s", err, stderr.String())
		}
	})

	t.Run("the window without the desktop build", func(t *testing.T) {
		var stderr bytes.Buffer
		cmd := root.command("--data-dir", "/data")
		cmd.Stderr = &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != ExitFailure || !strings.Contains(stderr.String(), "/agentdesk-desktop was not found") {
			t.Fatalf("agentdesk with no command, no desktop build: exit %d %v\n%s", code, err, stderr.String())
		}
	})

	// Outside the root, where a shell exists: the static build's shell commands go through the
	// sandbox as the desktop build's do (the helper embedded, or this binary re-executed).
	t.Run("a shell command runs in the sandbox", func(t *testing.T) {
		dir, data, ws := t.TempDir(), t.TempDir(), t.TempDir()
		script := filepath.Join(dir, "script.json")
		if err := os.WriteFile(script, []byte(`{"responses":[
			{"text":"Writing.","tool_calls":[{"name":"bash","input":{"command":"echo sandboxed > out.txt"}}]},
			{"text":"Written."}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "run", "--workspace", ws, "--permission", "full", "--script", script, "--data-dir", data, "write").CombinedOutput()
		if err != nil {
			t.Fatalf("agentdesk run: %v\n%s", err, out)
		}
		if got, _ := os.ReadFile(filepath.Join(ws, "out.txt")); string(got) != "sandboxed\n" {
			t.Fatalf("the command wrote %q\n%s", got, out)
		}
	})

	// Outside the root: the window is the desktop build's, run in this process's place with the
	// data folder and the absolute folder, its exit status the command's.
	t.Run("the window is handed to the desktop build beside it", func(t *testing.T) {
		dir := t.TempDir()
		raw, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "agentdesk"), raw, 0o755); err != nil {
			t.Fatal(err)
		}
		fake := "#!/bin/sh\necho $$ > \"$0.pid\"\nprintf '%s\\n' \"$@\" > \"$0.args\"\nexit 3\n"
		if err := os.WriteFile(filepath.Join(dir, DesktopBinary), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		data, folder := t.TempDir(), t.TempDir()
		cmd := exec.Command(filepath.Join(dir, "agentdesk"), "--data-dir", data, ".")
		cmd.Dir = folder
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 3 {
			t.Fatalf("exit %d, want the desktop build's 3: %s", code, out)
		}
		args, _ := os.ReadFile(filepath.Join(dir, DesktopBinary+".args"))
		if want := "--data-dir\n" + data + "\n" + folder + "\n"; string(args) != want {
			t.Fatalf("the desktop build got %q, want %q", args, want)
		}
		pid, _ := os.ReadFile(filepath.Join(dir, DesktopBinary+".pid"))
		if strings.TrimSpace(string(pid)) != strconv.Itoa(cmd.Process.Pid) {
			t.Fatalf("the desktop build ran as process %s, not in the command's place (%d)", pid, cmd.Process.Pid)
		}
	})
}
