package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"agentdesk/backend/errs"
)

// Policy is what one sandboxed command may touch.
type Policy struct {
	// Workspace is the folder the command may change (read-write).
	Workspace string `json:"workspace"`
	// DataDir is the app's data folder: never writable, and hidden where the kernel allows.
	DataDir string `json:"data_dir,omitempty"`
	// Network allows TCP bind and connect (an escalation the person approved).
	Network bool `json:"network,omitempty"`
	// TempDir is a private temp folder for this command, read-write; it becomes TMPDIR. With
	// namespaces it holds the command's root file system instead, and TMPDIR is a fresh /tmp.
	TempDir string `json:"temp_dir,omitempty"`
	// ReadOnly confines reads to the workspace and the toolchain and allows no write outside
	// the temp folder: Auto's read-only commands, which run unasked, so a link or a file list
	// pointing out of the workspace fails in the kernel whatever its spelling.
	ReadOnly bool `json:"read_only,omitempty"`
	// GitWrite lets the command change the workspace's .git (commit, add, checkout): an
	// escalation the person approved. Hooks and config stay read-only even then.
	GitWrite bool `json:"git_write,omitempty"`
	// Hide lists paths the command must not see at all (path deny rules, sensitive paths), where
	// namespaces work.
	Hide []string `json:"hide,omitempty"`
	// ProxySocket is the Unix socket of AgentDesk's network proxy for this command, where
	// namespaces work: the command's only way out, through ProxyPort on its own loopback.
	ProxySocket string `json:"proxy_socket,omitempty"`
	// Expose lists folders shown read-only besides the view, where namespaces work: a program
	// installed outside the toolchain (an MCP server's own folder).
	Expose []string `json:"expose,omitempty"`
	// WorkspaceReadOnly shows the workspace read-only while reads stay as wide as the view: an
	// external agent in a mode where its changes must come through AgentDesk's gate.
	WorkspaceReadOnly bool `json:"workspace_read_only,omitempty"`
	// Writable lists folders shown read-write besides the workspace, where namespaces work: an
	// external agent's own state (its sessions, its settings).
	Writable []string `json:"writable,omitempty"`
	// LocalNet lets the command listen and connect on any port of its network namespace's own
	// lo, where it has one: a program that serves itself (opencode's ACP mode runs its own
	// server). Nothing outside the namespace becomes reachable.
	LocalNet bool `json:"local_net,omitempty"`
	// LocalPorts are ports of a local service on the host (a model server) that the command
	// reaches at 127.0.0.1 inside its namespace, with ProxySocket: the helper bridges each to
	// LocalPortSocket, which the caller serves.
	LocalPorts []int `json:"local_ports,omitempty"`
	// Task names the git folders of a task's own worktree when the workspace is one
	// (backend/worktree), from AgentDesk's record, never read from the worktree. Where namespaces
	// work, git add and commit then run there: the worktree's git folder and its branch's own
	// folder of refs are writable, and new objects go to a folder of the task's own
	// (GIT_OBJECT_DIRECTORY), the repository's objects read as an alternate, never changed. The
	// repository's config, hooks and every other ref stay read-only.
	Task *TaskGit `json:"task,omitempty"`
}

// TaskGit names a task worktree's git folders.
type TaskGit struct {
	GitDir string `json:"git_dir"` // the worktree's own git folder (COMMON/worktrees/NAME)
	Common string `json:"common"`  // the repository's shared git folder
	Branch string `json:"branch"`  // the task's branch, agentdesk/SHORT/SLUG
}

// Objects is the task's own object folder, inside its git folder.
func (g TaskGit) Objects() string { return filepath.Join(g.GitDir, "objects") }

// refFolders are the folders of the task's branch ref and its log: agentdesk/SHORT holds this
// task's branch only. ok is false for a branch outside that pattern.
func (g TaskGit) refFolders() (dirs []string, ok bool) {
	parts := strings.Split(g.Branch, "/")
	if len(parts) != 3 || parts[0] != "agentdesk" || parts[1] == "" || parts[2] == "" || strings.Contains(g.Branch, "..") {
		return nil, false
	}
	rel := filepath.Join("refs", "heads", parts[0], parts[1])
	return []string{filepath.Join(g.Common, rel), filepath.Join(g.Common, "logs", rel)}, true
}

// writable lists what a task's command may change besides the worktree.
func (g TaskGit) writable() []string {
	dirs, ok := g.refFolders()
	if !ok {
		return nil
	}
	return append([]string{g.GitDir}, dirs...)
}

// Kind names the confinement the kernel offers.
type Kind string

const (
	KindLandlock Kind = "landlock"
	KindNone     Kind = "none"
)

// Support is what the running kernel offers, for the doctor and for Command.
type Support struct {
	Kind Kind `json:"kind"`
	// ABI is the kernel's Landlock ABI version; 0 without Landlock.
	ABI int `json:"abi"`
	// Network: TCP bind and connect can be refused (ABI 4 and later).
	Network bool `json:"network"`
	// Scoped: signals and abstract unix sockets cannot leave the sandbox (ABI 6 and later).
	Scoped bool `json:"scoped"`
	// Namespaces: commands run in their own user, mount, PID, network and IPC namespaces, so
	// they see only View, nothing they start outlives them, and they have no network but lo.
	Namespaces bool `json:"namespaces"`
	// ProtectGit: the workspace's .git is read-only to commands (it needs the namespaces).
	ProtectGit bool `json:"protect_git"`
	// Reaper: what ends the processes a command leaves behind ("pid-namespace", or
	// "subreaper" where namespaces are unavailable).
	Reaper string `json:"reaper"`
	// View is what a namespaced command sees of the file system besides the workspace.
	View View `json:"view"`
	// Uncovered names what this machine's kernel leaves open, for the doctor and Settings.
	Uncovered []string `json:"uncovered"`
	// Reason says why Kind is none, or why ProtectGit is false.
	Reason string `json:"reason,omitempty"`
}

const (
	// helperArg is the hidden first argument of the helper, and helperEnv its environment marker.
	// Both must be present: neither an argument a person types nor an inherited variable alone
	// turns the program into the helper.
	helperArg     = "__agentdesk-sandbox"
	helperEnvName = "AGENTDESK_SANDBOX_HELPER"
	helperEnv     = helperEnvName + "=1"
	// helperFailed is the helper's exit status when it could not confine the shell (as env(1)
	// uses 125): the shell never runs unconfined by accident.
	helperFailed = 125
)

// request is what Command hands the helper, as JSON in the argument after helperArg.
type request struct {
	Policy Policy   `json:"policy"`
	Shell  string   `json:"shell"`
	Args   []string `json:"args"`
	// Namespaces: the helper runs in its own namespaces and builds View as the command's root.
	Namespaces bool `json:"namespaces,omitempty"`
	// NewNet: the helper is in a network namespace of its own, whose lo it must bring up.
	NewNet bool `json:"new_net,omitempty"`
	View   View `json:"view"`
	// Probe: the helper checks what it built and exits 0, instead of running a shell.
	Probe bool `json:"probe,omitempty"`
	// Unconfined: the helper applies no Landlock rule and only supervises (Supervised).
	Unconfined bool `json:"unconfined,omitempty"`
}

// hooked records that this binary called RunHelperIfRequested, so a copy of it can be the helper.
var hooked atomic.Bool

// RunHelperIfRequested turns this process into the sandbox helper when Command started it, and
// never returns then: it confines itself and execs the shell, or exits with status 125. Call it
// first thing in main, and in TestMain of every test binary whose tests run shell commands.
func RunHelperIfRequested() {
	hooked.Store(true)
	if len(os.Args) < 3 || os.Args[1] != helperArg || !hasMarker(os.Environ()) {
		return
	}
	var req request
	if err := json.Unmarshal([]byte(os.Args[2]), &req); err != nil {
		fail(err)
	}
	fail(runHelper(req))
}

func hasMarker(environ []string) bool {
	for _, kv := range environ {
		if kv == helperEnv {
			return true
		}
	}
	return false
}

// fail reports on the shell's own output, which the model reads, and exits.
func fail(err error) {
	fmt.Fprintf(os.Stderr, "agentdesk sandbox: %v\n", err)
	os.Exit(helperFailed)
}

func errHelperMissing() error { return errs.New(HelperMissing) }

// Status reports what the kernel offers; the first call probes, later calls reuse the answer.
func Status() Support { return status() }

var status = sync.OnceValue(detect)

// Command builds the command that runs shell with args, env and Policy p: through the helper
// where the kernel offers Landlock, directly where it does not. The caller sets Dir, output and
// process-group attributes (adding to SysProcAttr, never replacing it), and starts it.
func Command(p Policy, shell string, args, env []string) (*exec.Cmd, error) {
	st := Status()
	if st.Kind != KindLandlock {
		return Unconfined(p, shell, args, env), nil
	}
	req := request{Policy: p, Shell: shell, Args: args}
	// The command's root is built on its private temp folder, so a call without one (none of the
	// app's) keeps the host's file system under Landlock alone.
	if st.Namespaces && p.TempDir != "" {
		// The proxy replaces the host's network: a namespace with it has only lo too.
		req.Namespaces, req.NewNet, req.View = true, !p.Network || p.ProxySocket != "", DefaultView().with(p.Expose).withWritable(p.Writable)
	}
	return helperCommand(req, withTempDir(env, p.TempDir))
}

// helperCommand starts the helper: the embedded static program where there is one, else a
// re-execution of this binary.
func helperCommand(req request, env []string) (*exec.Cmd, error) {
	path, err := helperPath()
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, errs.Wrap(SandboxFailed, err, "Problem", err.Error())
	}
	cmd := exec.Command(path, helperArg, string(raw))
	cmd.Env = append(without(env, helperEnvName+"="), helperEnv)
	if req.Namespaces {
		useNamespaces(cmd, req.NewNet)
	}
	return cmd, nil
}

// withTempDir points TMPDIR at the private temp folder (a copy: env is the caller's).
func withTempDir(env []string, dir string) []string {
	if dir == "" {
		return env
	}
	return append(without(env, "TMPDIR="), "TMPDIR="+dir)
}

// without drops every entry that starts with prefix.
func without(env []string, prefix string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if len(kv) < len(prefix) || kv[:len(prefix)] != prefix {
			out = append(out, kv)
		}
	}
	return out
}

// Unconfined builds the command that runs shell without the sandbox (where the person approved
// that, or the kernel offers none), with the same private temp folder, still under the helper's
// supervision (Supervised).
func Unconfined(p Policy, shell string, args, env []string) *exec.Cmd {
	return Supervised(shell, args, withTempDir(env, p.TempDir))
}

// Supervised builds a command that runs name with args and env under the helper, unconfined:
// the helper leads the command's process group and kills all of it when AgentDesk dies (see
// supervise), so nothing the command started outlives a crash. The caller sets Dir, the
// standard streams and the process group (proc.Own), as for Command. Where the helper cannot
// run (another system, a binary without the hook, a name not on PATH) it is the plain command.
func Supervised(name string, args, env []string) *exec.Cmd {
	if path, err := exec.LookPath(name); err == nil {
		if cmd, err := helperCommand(request{Shell: path, Args: args, Unconfined: true}, env); err == nil {
			return cmd
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Env = env
	return cmd
}

// LocalPortSocket is where AgentDesk serves the host's local service at port for a command whose
// proxy socket is proxySocket: the helper bridges 127.0.0.1:port inside the namespace to it.
func LocalPortSocket(proxySocket string, port int) string {
	return filepath.Join(filepath.Dir(proxySocket), "port-"+strconv.Itoa(port))
}
