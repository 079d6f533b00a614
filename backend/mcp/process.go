package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"agentdesk/backend/errs"
	"agentdesk/backend/proc"
	"agentdesk/backend/sandbox"
)

// A stdio server runs under the same kernel sandbox as shell commands (backend/sandbox), in its
// own process group and session, with a private TMPDIR. What it may do, and why:
//
//   - read and run what the shell may (the toolchain and the build caches where namespaces
//     work, else the whole file system except AgentDesk's data folder), and its own program's
//     folder and the folders its arguments name, read-only: a server is often installed
//     outside the toolchain;
//   - write only inside the session's workspace and its private temp folder: a server acts on
//     the workspace the person works in (each call through the gate), and on nothing else;
//   - no network unless the person allowed it for this server (Config.Network): a server that
//     needs an API says so when it is added, and the person sees it in the list;
//   - the shell's environment, by the same rule (no KEY/SECRET/TOKEN/PASSWORD names and no
//     provider variables unless Settings keeps them), plus the variables its entry sets.
//
// Where the kernel has no Landlock, sandbox.Command starts it directly and the gate is the only
// line of defence, as for shell commands.

// graceful is how long a server gets to exit after its input closes, and again after SIGTERM.
const graceful = 2 * time.Second

// stderrTail is how much of a server's standard error is kept to explain a crash.
const stderrTail = 2 << 10

// processTransport starts a stdio server and connects to it over its standard input and output.
type processTransport struct {
	cmd     *exec.Cmd
	tmp     string
	stderr  *tail
	log     io.WriteCloser // nil when there is no log
	waited  chan struct{}
	waitErr error
}

// newProcess builds the sandboxed command of a stdio server for workspace.
func newProcess(cfg Config, workspace, dataDir string, getenv func(string) string, passEnv []string, logPath string) (*processTransport, error) {
	program, args, env, err := processArgs(cfg, getenv, passEnv)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "agentdesk-mcp-*")
	if err != nil {
		return nil, err
	}
	p := sandbox.Policy{Workspace: workspace, DataDir: dataDir, Network: cfg.Network, TempDir: tmp,
		Expose: installFolders(program, append(slices.Clone(args), configured(cfg, env)...))}
	cmd, err := sandbox.Command(p, program, args, env)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	cmd.Dir = workspace
	// Its own session and process group, tied to AgentDesk's life: one signal reaches
	// everything it starts, nothing outlives a crash of AgentDesk, and a server that would
	// prompt on a terminal fails at once.
	proc.Own(cmd, true)
	t := &processTransport{cmd: cmd, tmp: tmp, waited: make(chan struct{}),
		log: openLog(logPath, fmt.Sprintf("%s %s (in %s)", program, strings.Join(args, " "), workspace))}
	t.stderr = newTail(stderrTail, t.log)
	cmd.Stderr = t.stderr
	return t, nil
}

// installFolders are the folders a server's program lives in: its executable's, and those of
// the absolute paths among the words of its arguments and configured variables
// (node /opt/servers/x/index.js, or sh -c 'exec "$SERVER"'), each widened to the installation
// it belongs to (packageRoot).
func installFolders(program string, args []string) []string {
	dirs := []string{packageRoot(filepath.Dir(program))}
	for _, a := range args {
		for _, word := range strings.Fields(a) {
			if !filepath.IsAbs(word) {
				continue
			}
			if fi, err := os.Stat(word); err == nil && fi.IsDir() {
				dirs = append(dirs, packageRoot(word))
			} else if err == nil {
				dirs = append(dirs, packageRoot(filepath.Dir(word)))
			}
		}
	}
	return dirs
}

// packageRoot widens a folder inside an installation to the whole of it, since a program
// loads its dependencies from beside itself: a folder under node_modules to the outermost
// node_modules (Node resolves packages up that tree), one in a Python virtual environment to
// the environment (its lib folder). Any other folder is itself.
func packageRoot(dir string) string {
	root := dir
	for d := dir; ; d = filepath.Dir(d) {
		if filepath.Base(d) == "node_modules" {
			root = d
		} else if _, err := os.Stat(filepath.Join(d, "pyvenv.cfg")); err == nil {
			root = d
		}
		if parent := filepath.Dir(d); parent == d {
			return root
		}
	}
}

// configured are the expanded values of the variables the server's configuration sets.
func configured(cfg Config, env []string) []string {
	var out []string
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if _, set := cfg.Env[name]; set {
			out = append(out, value)
		}
	}
	return out
}

// processArgs resolves the program on PATH and expands ${VAR} references in the arguments and
// the configured environment. The environment follows the shell's one rule (sandbox.ScrubEnv
// with the names Settings keeps), plus what the server's entry sets.
func processArgs(cfg Config, getenv func(string) string, passEnv []string) (program string, args, env []string, err error) {
	command, err := expandVars(cfg.Command, getenv)
	if err != nil {
		return "", nil, nil, err
	}
	if program, err = exec.LookPath(command); err != nil {
		return "", nil, nil, err
	}
	if program, err = filepath.Abs(program); err != nil {
		return "", nil, nil, err
	}
	for _, a := range cfg.Args {
		v, err := expandVars(a, getenv)
		if err != nil {
			return "", nil, nil, err
		}
		args = append(args, v)
	}
	env = sandbox.ScrubEnv(os.Environ(), passEnv)
	for _, k := range sortedKeys(cfg.Env) {
		v, err := expandVars(cfg.Env[k], getenv)
		if err != nil {
			return "", nil, nil, err
		}
		env = append(withoutVar(env, k), k+"="+v)
	}
	return program, args, env, nil
}

func withoutVar(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// Connect starts the process. The pipes are the transport's own (not exec's), so the reader sees
// the end of the stream when the process exits rather than a pipe closed under it by Wait.
func (t *processTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	err = t.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		os.RemoveAll(t.tmp)
		t.closeLog()
		return nil, err
	}
	out := &stdout{File: outR}
	go func() {
		t.waitErr = t.cmd.Wait()
		t.closeLog()
		close(t.waited)
	}()
	return (&mcp.IOTransport{Reader: out, Writer: &stdin{File: inW, t: t}}).Connect(ctx)
}

func (t *processTransport) closeLog() {
	if t.log != nil {
		t.log.Close()
	}
}

// exited reports whether the process has ended, and how.
func (t *processTransport) exited() (bool, string) {
	select {
	case <-t.waited:
	default:
		return false, ""
	}
	status := "exited"
	if t.waitErr != nil {
		status = t.waitErr.Error()
	}
	if s := strings.TrimSpace(t.stderr.String()); s != "" {
		status += "; stderr: " + s
	}
	return true, status
}

// stop ends the process the way the MCP specification asks: its input closed first, then
// SIGTERM, then SIGKILL, each to the whole group so nothing it started stays behind. SIGKILL
// goes to the group even after a clean exit: a child the server left running goes with it.
func (t *processTransport) stop() {
	for _, step := range []func(){func() {}, func() { terminateGroup(t.cmd) }} {
		step()
		select {
		case <-t.waited:
			proc.Kill(t.cmd)
			os.RemoveAll(t.tmp)
			return
		case <-time.After(graceful):
		}
	}
	t.kill()
}

// kill ends the whole group at once and waits for the server (Close past its deadline).
func (t *processTransport) kill() {
	proc.Kill(t.cmd)
	<-t.waited
	os.RemoveAll(t.tmp)
}

// stdout is the server's output. Closing it (the session ended) reads it to its end instead of
// closing the pipe under the server: a server still writing as it exits must not die of EPIPE
// (Node prints a stack trace for that). The end comes when the server's group is gone, which
// stop makes sure of.
type stdout struct {
	*os.File
	once sync.Once
}

func (s *stdout) Close() error {
	s.once.Do(func() {
		go func() {
			_, _ = io.Copy(io.Discard, s.File)
			s.File.Close()
		}()
	})
	return nil
}

// stdin is the server's input; closing it stops the server.
type stdin struct {
	*os.File
	t    *processTransport
	once sync.Once
}

func (s *stdin) Close() error {
	err := s.File.Close()
	s.once.Do(func() { go s.t.stop() })
	return err
}

// tail keeps the last bytes a server wrote to standard error, and copies them to its log.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	limit int
	log   io.Writer
}

func newTail(limit int, log io.Writer) *tail {
	return &tail{limit: limit, log: log}
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.limit {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.limit:]...)
	}
	if t.log != nil {
		_, _ = t.log.Write(p)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.buf), "\uFFFD")
}

// startError is the error of a server that could not start.
func startError(name string, err error) error {
	var notFound *exec.Error
	if errors.As(err, &notFound) {
		return errs.Wrap(CommandNotFound, err, "Server", name, "Command", notFound.Name)
	}
	if e := errs.As(err); e.Kind == errs.MissingArgument {
		return errs.Wrap(ServerUnavailable, err, "Server", name, "Problem", "the variable "+fmt.Sprint(e.Args["Name"])+" is not set")
	}
	return errs.Wrap(ServerUnavailable, err, "Server", name, "Problem", err.Error())
}
