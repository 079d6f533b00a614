package eventlog

import "errors"

// Log types of what AgentDesk did to prepare a task's new worktree.
const (
	TypeWorktreeCopied = "worktree.copied"
	TypeWorktreeSetup  = "worktree.setup"
)

// WorktreeCopied is what the person's worktree-copy setting brought into a new worktree: the
// files copied, those matched but skipped (Reason: link, irregular, too_large, sensitive,
// denied, exists, failed) and how many matched beyond the bound on files.
type WorktreeCopied struct {
	Files    []string      `json:"files"`
	Skipped  []SkippedFile `json:"skipped,omitempty"`
	LeftOver int           `json:"left_over,omitempty"`
}

// SkippedFile is one matched file that was not copied, and why.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Where a set-up command came from.
const (
	SetupFromSettings   = "settings"   // the person's own worktree-setup setting
	SetupFromRepository = "repository" // the repository's .agentdesk/worktree.json, ticked for this task
)

// WorktreeSetup is the set-up command run in a new worktree, and how it ended: its exit code
// (-1 when it had none), the tail of its output, how long it ran. TimedOut and Cancelled say
// it was cut short; Error is an error kind when it could not start at all.
type WorktreeSetup struct {
	Command    string `json:"command"`
	Source     string `json:"source"`
	ExitCode   int    `json:"exit_code"`
	Output     string `json:"output,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	TimedOut   bool   `json:"timed_out,omitempty"`
	Cancelled  bool   `json:"cancelled,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Failed reports whether the set-up did not end with exit code 0.
func (m WorktreeSetup) Failed() bool {
	return m.ExitCode != 0 || m.TimedOut || m.Cancelled || m.Error != ""
}

func (WorktreeCopied) LogType() string { return TypeWorktreeCopied }
func (WorktreeSetup) LogType() string  { return TypeWorktreeSetup }

func (m WorktreeCopied) visit(v Visitor) { v.WorktreeCopied(m) }
func (m WorktreeSetup) visit(v Visitor)  { v.WorktreeSetup(m) }

func (WorktreeCopied) validate() error { return nil }

func (m WorktreeSetup) validate() error {
	if err := required("command", m.Command); err != nil {
		return err
	}
	if m.Source != SetupFromSettings && m.Source != SetupFromRepository {
		return errors.New("source must be settings or repository")
	}
	return nil
}
