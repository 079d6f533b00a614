package eventlog

import "errors"

// Log types of checkpoints, restores and reviews.
const (
	TypeCheckpoint = "checkpoint.taken"
	TypeRestore    = "checkpoint.restored"
	TypeReview     = "review.applied"
)

// Checkpoint is a snapshot of the workspace the runtime took: before a turn (reason "turn"),
// around an approved write, edit or shell command ("before_tool", "after_tool"), or when the
// turn ended ("turn_end"). Changed lists what differs from the snapshot before it (after a tool:
// what the call changed, the shell's side effects included; at the turn's end: the whole turn).
// A snapshot that could not be taken has no id and says why (Error, an error kind): the turn
// went on without it, and the transcript shows that it is missing.
type Checkpoint struct {
	TurnID       string `json:"turn_id,omitempty"`
	CallID       string `json:"call_id,omitempty"`
	CheckpointID int64  `json:"checkpoint_id,omitempty"`
	Reason       string `json:"reason"`
	Files        int    `json:"files,omitempty"`
	// Changed is measured from checkpoint From (the one before the call, or before the turn).
	From    int64        `json:"from,omitempty"`
	Changed []FileChange `json:"changed,omitempty"`
	Error   string       `json:"error,omitempty"`
	// ErrorArgs fill the error's message (the folder, the limit).
	ErrorArgs map[string]any `json:"error_args,omitempty"`
}

// FileChange is one file a snapshot, a restore or a review changed, and how ("create",
// "modify", "delete").
type FileChange struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

// Restore scopes.
const (
	ScopeFiles        = "files"
	ScopeConversation = "conversation"
	ScopeBoth         = "both"
)

// Restore is the person putting things back to a checkpoint: the files (UndoID is the
// checkpoint of what the restore replaced, so the restore can itself be undone; ResultID the
// state it made), the conversation (ForkID: the session that continues from before the turn),
// or both. In a fork, ForkOf names the session it was forked from.
type Restore struct {
	CheckpointID int64        `json:"checkpoint_id"`
	TurnID       string       `json:"turn_id,omitempty"`
	Scope        string       `json:"scope"`
	UndoID       int64        `json:"undo_id,omitempty"`
	ResultID     int64        `json:"result_id,omitempty"`
	Changed      []FileChange `json:"changed,omitempty"`
	ForkID       string       `json:"fork_id,omitempty"`
	ForkOf       string       `json:"fork_of,omitempty"`
}

// Review actions.
const (
	ReviewAccept = "accept"
	ReviewRevert = "revert"
)

// Review is the person's verdict on a turn's change to one file: accepted or reverted, whole
// (Hunks empty) or hunk by hunk (indexes into the turn's hunks of the file). Patch is the
// reverted change as a unified diff, so the model can be told exactly what was undone; Reason
// is the person's own words, which reach the model at the next turn. A revert is taken
// between two checkpoints (UndoID before it, ResultID after it). Worktree marks a change the
// person discarded from a task's own worktree, of no one turn: TurnID is empty and Hunks index
// the task's changes against the commit it started from.
type Review struct {
	TurnID   string `json:"turn_id"`
	Worktree bool   `json:"worktree,omitempty"`
	Path     string `json:"path"`
	Action   string `json:"action"`
	Hunks    []int  `json:"hunks,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Patch    string `json:"patch,omitempty"`
	UndoID   int64  `json:"undo_id,omitempty"`
	ResultID int64  `json:"result_id,omitempty"`
}

func (Checkpoint) LogType() string { return TypeCheckpoint }
func (Restore) LogType() string    { return TypeRestore }
func (Review) LogType() string     { return TypeReview }

func (m Checkpoint) visit(v Visitor) { v.Checkpoint(m) }
func (m Restore) visit(v Visitor)    { v.Restore(m) }
func (m Review) visit(v Visitor)     { v.Review(m) }

func (m Checkpoint) validate() error {
	if m.CheckpointID <= 0 && m.Error == "" {
		return errors.New("checkpoint_id or error is missing")
	}
	return required("reason", m.Reason)
}

func (m Restore) validate() error {
	if m.CheckpointID <= 0 {
		return errors.New("checkpoint_id is missing")
	}
	switch m.Scope {
	case ScopeFiles, ScopeConversation, ScopeBoth:
		return nil
	}
	return errors.New("scope must be files, conversation or both")
}

func (m Review) validate() error {
	turn := m.TurnID
	if m.Worktree {
		turn = "-" // none is needed
	}
	if err := required("turn_id", turn, "path", m.Path); err != nil {
		return err
	}
	if m.Action != ReviewAccept && m.Action != ReviewRevert {
		return errors.New("action must be accept or revert")
	}
	return nil
}
