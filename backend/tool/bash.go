package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
)

const (
	bashDefaultTimeout = 120 // seconds
	bashMaxTimeout     = 600
	bashOutputCap      = 64 << 10 // bytes kept for the model: half head, half tail
	bashStreamCap      = 1 << 20  // bytes streamed live to env.Output
	// bashDrainGrace bounds the wait for output after the process group is gone: a process
	// that left the group (setsid) may still hold the pipe, and must not hang the call.
	bashDrainGrace = 500 * time.Millisecond
	// bashStopGrace bounds the wait for the sandbox helper to end what a cancelled command
	// started before the whole group is killed.
	bashStopGrace = 300 * time.Millisecond
)

var bashSpec = spec{tool: mode.ToolBash, params: []param{
	{name: "command", typ: "string", title: "Command", required: true, nonBlank: true,
		description: "The shell command to run with bash -c in the workspace folder."},
	{name: "timeout_s", typ: "integer", title: "Timeout (seconds)", min: 1, max: bashMaxTimeout, def: bashDefaultTimeout,
		description: "Seconds before the command and every process it started are killed."},
	{name: "escalate", typ: "string", title: "Escalate",
		description: `Leave unset for a normal command. Set "network" to ask the person to let this command reach the network, "git" to let it change the repository's .git (set by itself for git commit, add, checkout …; needed for a script that runs them), or "unsandboxed" to ask to run it outside the sandbox altogether; say why in a comment at the end of the command (# reason).`},
}}

const bashDescription = `Runs a shell command with "bash -c" in the workspace folder and returns its combined stdout and stderr followed by "[exit code: N]".
A non-zero exit code marks the call as failed. Standard input is empty, so interactive commands fail instead of waiting.
The command times out after timeout_s seconds (default 120, at most 600); then it and every process it started are killed. Processes left running in the background when the command exits are killed too, so do not start servers or watchers you expect to outlive the call.
Output beyond 64 KiB keeps the first and last 32 KiB with a marker in between; prefer commands with concise output (e.g. pipe through head or grep).
Commands run in a sandbox: they see the workspace, the toolchain and the build caches, write only inside the workspace, the caches and $TMPDIR (a private temp folder removed after the call), and cannot change the repository's .git; secrets are removed from the environment. A path elsewhere is missing ("No such file or directory") or refused ("Permission denied"). Where the sandbox offers network at all, it goes only through a proxy that HTTP_PROXY, HTTPS_PROXY and ALL_PROXY name: the person is asked about each new host while the connection waits, and a tool that ignores those variables cannot connect; elsewhere connections are refused. When a command really needs more, run it again with escalate set to "network" (any public host) or "unsandboxed" and a comment giving the reason: the person decides.
Use the read, glob, grep, edit and write tools for files instead of cat, find, sed or echo redirection.`

type bashInput struct {
	Command  string `json:"command"`
	TimeoutS int    `json:"timeout_s"`
	Escalate string `json:"escalate"`
}

type bashTool struct{ about }

var bashSchema = withEnum(bashSpec.schema(), "escalate", policy.Escalations)

// withEnum adds an enum to one string property of a schema rendered by spec.schema, in place so
// the properties keep their order. The param list has no enum yet; this is its only user.
func withEnum[T ~string](schema json.RawMessage, name string, values []T) json.RawMessage {
	prop := []byte(`"` + name + `":{`)
	at := bytes.Index(schema, prop)
	if at < 0 {
		panic("withEnum: no property " + name)
	}
	enum := append([]byte(`"enum":`), mustJSON(values)...)
	out := slices.Concat(schema[:at+len(prop)], enum, []byte(","), schema[at+len(prop):])
	return json.RawMessage(out)
}

func (bashTool) decode(input json.RawMessage) (bashInput, error) {
	var in bashInput
	if err := bashSpec.decode(input, &in); err != nil {
		return in, err
	}
	if in.TimeoutS == 0 {
		in.TimeoutS = bashDefaultTimeout
	}
	if in.Escalate != "" && !slices.Contains(policy.Escalations, policy.Escalation(in.Escalate)) {
		return in, bashSpec.invalid(fmt.Sprintf(`field "escalate" must be "network", "git" or "unsandboxed", not %q`, in.Escalate))
	}
	return in, nil
}

// Describe puts the full command in the summary: the person approves exactly what will run,
// and whether it steps out of the sandbox. Run never reads escalate: only what the person
// approved (env.Shell) loosens the sandbox.
func (t bashTool) Describe(input json.RawMessage) (Call, error) {
	in, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	gate := gateCall(mode.ToolBash, "", in.Command)
	gate.Escalation = policy.Escalation(in.Escalate)
	if gate.Escalation == policy.NoEscalation && policy.WritesGit(in.Command) {
		gate.Escalation = policy.EscalateGit
	}
	return Call{Gate: gate, Summary: in.Command}, nil
}

func (t bashTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	if env.Workspace == "" {
		return Result{}, noWorkspace(mode.ToolBash)
	}
	runCtx, cancel := context.WithTimeout(ctx, time.Duration(in.TimeoutS)*time.Second)
	defer cancel()
	out := newCapture(bashOutputCap, bashStreamCap, env.Output)
	waitErr, killed, err := runShell(runCtx, env.Workspace, in.Command, env.Shell, out)
	if err != nil {
		return Result{}, errs.Wrap(ToolFailed, err, "Tool", string(mode.ToolBash), "Problem", err.Error())
	}
	out.flush()
	res := Result{Output: out.String(), Truncated: out.omitted() > 0, IsError: true}
	switch {
	case killed && ctx.Err() != nil:
		return res, errs.Wrap(ToolCancelled, ctx.Err(), "Tool", string(mode.ToolBash))
	case killed:
		res.Output, res.Display = withStatus(res.Output, fmt.Sprintf(
			"[timed out after %ds; the command and the processes it started were killed]", in.TimeoutS),
			display.Say("tool.result.bash.timedOut", "Seconds", in.TimeoutS))
	default:
		res.IsError, res.Output, res.Display = exitStatus(res.Output, waitErr)
	}
	return res, nil
}

// exitStatus appends the exit code; a command killed by a signal has none to report.
func exitStatus(output string, waitErr error) (bool, string, *display.Message) {
	var exit *exec.ExitError
	switch {
	case waitErr == nil:
		out, m := withStatus(output, "[exit code: 0]", display.Say("tool.result.bash.exit", "Code", 0))
		return false, out, m
	case errors.As(waitErr, &exit) && exit.ExitCode() >= 0:
		out, m := withStatus(output, fmt.Sprintf("[exit code: %d]", exit.ExitCode()), display.Say("tool.result.bash.exit", "Code", exit.ExitCode()))
		return true, out, m
	case errors.As(waitErr, &exit):
		out, m := withStatus(output, fmt.Sprintf("[terminated: %s]", exit.ProcessState), display.Say("tool.result.bash.ended", "How", exit.ProcessState.String()))
		return true, out, m
	}
	out, m := withStatus(output, fmt.Sprintf("[failed: %v]", waitErr), display.Say("tool.result.bash.ended", "How", waitErr.Error()))
	return true, out, m
}

// withStatus puts the status line after the command's output for the model; the message says
// it to the person, standing for that last line (and the "(no output)" line before it, whose
// own key it then takes).
func withStatus(output, status string, m *display.Message) (string, *display.Message) {
	if output == "" {
		m.Key += "NoOutput"
		return "(no output)\n" + status, m.Last(2)
	}
	if !strings.HasSuffix(output, "\n") {
		output += "\n"
	}
	return output + status, m.Last(1)
}

// runShell runs command in its own process group with stdout and stderr merged into one pipe,
// in the order the command wrote them, confined as opts says, with a private temp folder that is
// removed afterwards. When ctx ends first, the whole group is killed at once (killed is true),
// so children and grandchildren die with the shell and cancel is prompt. The sandbox helper
// execs the shell in place, so the group is the shell's. waitErr is the shell's own exit; err
// means it could not start.
func runShell(ctx context.Context, dir, command string, opts ShellOptions, sink io.Writer) (waitErr error, killed bool, err error) {
	tmp, err := os.MkdirTemp("", "agentdesk-sh-*")
	if err != nil {
		return nil, false, err
	}
	defer removeTemp(tmp)
	socket, stopProxy, err := startProxy(opts)
	if err != nil {
		return nil, false, err
	}
	defer stopProxy()
	cmd, err := shellCommand(dir, command, opts, tmp, socket)
	if err != nil {
		return nil, false, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, false, err
	}
	defer pr.Close()
	cmd.Stdout, cmd.Stderr = pw, pw
	err = cmd.Start()
	pw.Close() // the child holds its own copy; ours would keep the pipe open forever
	if err != nil {
		return nil, false, err
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(sink, pr)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case waitErr = <-waited:
	case <-ctx.Done():
		waitErr, killed = stop(cmd, waited), true
	}
	// Whatever the shell left running in its group goes too: a call leaves no processes behind.
	killProcessGroup(cmd)
	drain(pr, copied)
	return waitErr, killed, nil
}

// stop ends a command cut short: the supervising helper is asked first (SIGTERM), so it ends
// everything below it, a process that left the group included, then the whole group is killed
// when the helper has not gone within bashStopGrace.
func stop(cmd *exec.Cmd, waited <-chan error) error {
	askToStop(cmd)
	timer := time.NewTimer(bashStopGrace)
	defer timer.Stop()
	select {
	case err := <-waited:
		return err
	case <-timer.C:
		killProcessGroup(cmd)
		return <-waited
	}
}

// shellCommand builds the command: the environment without secrets, git hardened for Auto's
// read-only class, and the kernel sandbox unless the person approved running without it.
func shellCommand(dir, command string, opts ShellOptions, tmp, proxySocket string) (*exec.Cmd, error) {
	name, args := shell(command)
	env := sandbox.ScrubEnv(os.Environ(), opts.PassEnv)
	if opts.HardenGit {
		env = sandbox.WithHardenedGit(env, dir)
	}
	p := sandbox.Policy{Workspace: dir, DataDir: opts.DataDir, Network: opts.Network, TempDir: tmp,
		ReadOnly: opts.HardenGit, GitWrite: opts.GitWrite, ProxySocket: proxySocket, Hide: opts.Hide, Task: opts.Task}
	cmd, err := confined(p, opts.Unsandboxed, name, args, env)
	if err != nil {
		return nil, err
	}
	cmd.Dir = dir
	newProcessGroup(cmd)
	return cmd, nil
}

func confined(p sandbox.Policy, unsandboxed bool, name string, args, env []string) (*exec.Cmd, error) {
	if unsandboxed {
		return sandbox.Unconfined(p, name, args, env), nil
	}
	return sandbox.Command(p, name, args, env)
}

// removeTemp removes the call's temp folder. A command may have left folders without write or
// search permission, which RemoveAll cannot empty: those are opened up and removal retried.
func removeTemp(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			_ = os.Chmod(path, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// drain waits for the copy to reach the end of the pipe, or closes the pipe after a grace.
func drain(pr *os.File, copied <-chan struct{}) {
	timer := time.NewTimer(bashDrainGrace)
	defer timer.Stop()
	select {
	case <-copied:
	case <-timer.C:
		pr.Close()
		<-copied
	}
}

// shell picks bash, then sh, then the platform's own shell.
func shell(command string) (string, []string) {
	for _, name := range []string{"bash", "sh"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, []string{"-c", command}
		}
	}
	return fallbackShell(command)
}
