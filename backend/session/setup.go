package session

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
	"agentdesk/backend/worktree"
)

// Bounds of a worktree's set-up command: npm ci on a large project takes minutes, not hours,
// and the transcript shows the end of its output, where the error is.
const (
	SetupTimeout    = 10 * time.Minute
	SetupOutputTail = 8 << 10
	maxSetupCommand = 4096
)

// Set-up refusals, recorded on the set-up's event.
const (
	// SetupUnconfined: the set-up did not run, since this machine's sandbox cannot hide the
	// sensitive files from a command (no namespaces), and there is nobody to ask per command.
	SetupUnconfined errs.Kind = "WORKTREE_SETUP_UNCONFINED"
	// SetupChanged: the repository's proposal in the new worktree is not the command the person
	// ticked, so it did not run.
	SetupChanged errs.Kind = "WORKTREE_SETUP_CHANGED"
)

// ParseSetupCommand reads the person's worktree-setup setting: one command line, trimmed; empty
// means none.
func ParseSetupCommand(v string) (string, error) {
	v = strings.TrimSpace(v)
	if len(v) > maxSetupCommand || strings.ContainsRune(v, 0) {
		return "", errs.Invalid("worktree-setup", v, []string{"npm ci", "make deps"})
	}
	return v, nil
}

// SetupWorktree runs the set-up commands in a new session's worktree, each recorded in its log:
// the person's own worktree-setup setting, then the repository's proposal when the person ticked
// it for this task (ticked is the text they were shown; "" is not ticked). started, when set,
// hears of each command as it starts. A failing set-up leaves the worktree as it is: the session
// goes on, and its transcript says what failed.
func (s *Service) SetupWorktree(ctx context.Context, id, ticked string, started func(eventlog.WorktreeSetup)) ([]eventlog.WorktreeSetup, error) {
	w, err := s.task(id, false)
	if err != nil {
		return nil, err
	}
	var plan []eventlog.WorktreeSetup
	if own := store.SettingOr(s.Store, store.SettingWorktreeSetup, ParseSetupCommand, ""); own != "" {
		plan = append(plan, eventlog.WorktreeSetup{Command: own, Source: eventlog.SetupFromSettings})
	}
	if ticked = strings.TrimSpace(ticked); ticked != "" {
		plan = append(plan, eventlog.WorktreeSetup{Command: ticked, Source: eventlog.SetupFromRepository})
	}
	var out []eventlog.WorktreeSetup
	for _, run := range plan {
		if started != nil {
			started(run)
		}
		run = s.runSetup(ctx, w, run)
		if _, err := s.Store.AppendStep(id, run); err != nil {
			return out, err
		}
		out = append(out, run)
	}
	return out, nil
}

// runSetup runs one set-up command, or records why it did not.
func (s *Service) runSetup(ctx context.Context, w store.TaskWorktree, run eventlog.WorktreeSetup) eventlog.WorktreeSetup {
	run.ExitCode = -1
	if run.Source == eventlog.SetupFromRepository && worktree.ProposedSetup(w.Path) != run.Command {
		run.Error = string(SetupChanged)
		return run
	}
	opts, err := s.setupShell(w)
	if err != nil {
		run.Error = string(errs.KindOf(err))
		return run
	}
	res, err := tool.RunCommand(ctx, w.Path, run.Command, opts, SetupTimeout, SetupOutputTail)
	if err != nil {
		run.Error = string(errs.KindOf(err))
		return run
	}
	run.ExitCode, run.Output, run.DurationMS = res.ExitCode, res.Output, res.Duration.Milliseconds()
	run.TimedOut, run.Cancelled = res.TimedOut, res.Cancelled
	return run
}

// setupShell is the sandbox a set-up command runs in: the one the session's own shell commands
// get (the worktree writable, its git folders as the task's, the data folder, deny rules and
// sensitive files hidden, secrets out of the environment), with the network Auto gives a
// command no one approved: the hosts the person approved, through the proxy. Where secrets
// cannot be hidden the gate would ask for every command; with nobody to ask, it does not run.
func (s *Service) setupShell(w store.TaskWorktree) (tool.ShellOptions, error) {
	if st := sandbox.Status(); st.Kind != sandbox.KindLandlock || !st.Namespaces {
		return tool.ShellOptions{}, errs.New(SetupUnconfined)
	}
	in, err := s.Store.GateInputs(w.SessionID)
	if err != nil {
		return tool.ShellOptions{}, err
	}
	pass, err := s.Store.ShellPassEnv()
	if err != nil {
		return tool.ShellOptions{}, err
	}
	sensitive, _ := s.Store.SensitivePaths() // unreadable reads as the default list: the strict one
	hide, _ := policy.MaskedPaths(in.Rules, w.Path)
	masks, complete := policy.SensitiveMasks(sensitive, w.Path)
	if !complete {
		return tool.ShellOptions{}, errs.New(SetupUnconfined)
	}
	return tool.ShellOptions{
		Proxy:   &netproxy.Config{Mode: netproxy.Full, Decide: s.approvedHosts(w.SessionID)},
		DataDir: filepath.Dir(s.Store.Path()),
		PassEnv: pass,
		Hide:    append(hide, masks...),
		Task:    &sandbox.TaskGit{GitDir: w.GitDir, Common: w.Common, Branch: w.Branch},
	}, nil
}

// approvedHosts lets a set-up command reach the hosts a Settings rule or the session's grants
// approve, read afresh at each connection; any other is refused, since nobody is there to ask.
func (s *Service) approvedHosts(sessionID string) func(context.Context, string, int) netproxy.Verdict {
	return func(_ context.Context, host string, _ int) netproxy.Verdict {
		host = policy.NormalHost(host)
		in, err := s.Store.GateInputs(sessionID)
		if err != nil || policy.HostDenied(in.Rules, host) || !policy.HostApproved(in.Grants, in.Rules, host) {
			return netproxy.Verdict{Refusal: errs.New(netproxy.Declined, "Host", host)}
		}
		return netproxy.Approve()
	}
}
