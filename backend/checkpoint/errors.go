package checkpoint

import "agentdesk/backend/errs"

// Error kinds of snapshots and restores; their messages are "error.<kind>" in locales/.
const (
	// Missing: a stored content is gone or damaged; the restore does not start.
	Missing errs.Kind = "CHECKPOINT_DAMAGED"
	// NeedsConfirmation: the restore would delete files; the person must see them first.
	NeedsConfirmation errs.Kind = "RESTORE_NEEDS_CONFIRMATION"
	// RestoreFailed: a file could not be put back (the workspace changed under the restore).
	RestoreFailed errs.Kind = "RESTORE_FAILED"
	// TooLarge: the folder has more files than a snapshot walks (Options.MaxFiles).
	TooLarge errs.Kind = "CHECKPOINT_TOO_LARGE"
	// NotAFile: a hunk or a file can be rewritten only where a regular file is (or was).
	NotAFile errs.Kind = "CHECKPOINT_NOT_A_FILE"
)
