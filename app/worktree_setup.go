package app

import (
	"context"

	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/session"
	"agentdesk/backend/worktree"
)

// EventWorktreeSetup says a set-up command in a new task's worktree ended (or could not run):
// the transcript shows it where the log has it. EventWorktreeSetupStarted says one started, so
// the session can say what its first turn waits for.
const (
	EventWorktreeSetup        = "worktree.setup.done"
	EventWorktreeSetupStarted = "worktree.setup.started"
)

// WorktreeSetupView is the payload of worktree.setup.done and worktree.setup.started (which
// sets only the command and its source).
type WorktreeSetupView struct {
	SessionID string            `json:"sessionId"`
	Setup     WorktreeSetupItem `json:"setup"`
}

// WorktreeCopiedItem is what the person's worktree-copy setting brought into the worktree, as
// the transcript shows it: the files copied, those skipped with why (link, irregular,
// too_large, sensitive, denied, exists, failed), and how many matched beyond the bound.
type WorktreeCopiedItem struct {
	Files    []string               `json:"files"`
	Skipped  []eventlog.SkippedFile `json:"skipped"`
	LeftOver int                    `json:"leftOver"`
	MaxFiles int                    `json:"maxFiles"`
}

// WorktreeSetupItem is a set-up command's run as the transcript shows it. Source is "settings"
// or "repository"; Error is an error kind when it did not run (its message in ErrorText).
type WorktreeSetupItem struct {
	Command    string `json:"command"`
	Source     string `json:"source"`
	ExitCode   int    `json:"exitCode"`
	Output     string `json:"output"`
	DurationMS int64  `json:"durationMs"`
	TimedOut   bool   `json:"timedOut"`
	Cancelled  bool   `json:"cancelled"`
	Failed     bool   `json:"failed"`
	Error      string `json:"error,omitempty"`
}

func setupItem(m eventlog.WorktreeSetup) WorktreeSetupItem {
	return WorktreeSetupItem{Command: m.Command, Source: m.Source, ExitCode: m.ExitCode, Output: m.Output,
		DurationMS: m.DurationMS, TimedOut: m.TimedOut, Cancelled: m.Cancelled, Failed: m.Failed(), Error: m.Error}
}

func (tl *timelineReader) WorktreeCopied(m eventlog.WorktreeCopied) {
	skipped := m.Skipped
	if skipped == nil {
		skipped = []eventlog.SkippedFile{}
	}
	tl.add(Item{Type: "worktreeCopied", WorktreeCopied: &WorktreeCopiedItem{Files: m.Files, Skipped: skipped,
		LeftOver: m.LeftOver, MaxFiles: worktree.CopyMaxFiles}})
}

func (tl *timelineReader) WorktreeSetup(m eventlog.WorktreeSetup) {
	it := setupItem(m)
	tl.add(Item{Type: "worktreeSetup", WorktreeSetup: &it})
}

// setUpWorktree runs a new isolated session's set-up commands in the background (the person's
// own, and the repository's when ticked for this task: ticked is its text), each announced when
// it ends. The session is usable meanwhile; the stop button cancels the set-up.
func (s *Services) setUpWorktree(sessionID, ticked string) {
	failed := func(err error) {
		e := errs.As(err)
		s.Bus.Publish(agent.EventSessionFailed, agent.SessionFailed{SessionID: sessionID, Kind: string(e.Kind), Args: e.Args})
	}
	err := s.Runtime.Chore(sessionID, func(ctx context.Context) {
		announce := func(run eventlog.WorktreeSetup) {
			s.Bus.Publish(EventWorktreeSetupStarted, WorktreeSetupView{SessionID: sessionID,
				Setup: WorktreeSetupItem{Command: run.Command, Source: run.Source}})
		}
		runs, err := (&session.Service{Store: s.Store}).SetupWorktree(ctx, sessionID, ticked, announce)
		for _, run := range runs {
			s.Bus.Publish(EventWorktreeSetup, WorktreeSetupView{SessionID: sessionID, Setup: setupItem(run)})
		}
		if err != nil {
			failed(err)
		}
	})
	if err != nil {
		failed(err)
	}
}
