package sandbox

import "agentdesk/backend/errs"

// Error kinds of this package. Each has an "error.<KIND>" message in locales/sandbox.*.json.
// Never rename one: tests and scripts assert them.
const (
	// HelperMissing: the sandbox would re-execute a binary that never called
	// RunHelperIfRequested, so the copy could not act as the helper. A programming error.
	HelperMissing errs.Kind = "SANDBOX_HELPER_MISSING"
	// SandboxFailed: the operating system refused to prepare the sandbox. Args: Problem.
	SandboxFailed errs.Kind = "SANDBOX_FAILED"
)

// Kinds lists every kind above, for the test that checks each has a message in every language.
var Kinds = []errs.Kind{HelperMissing, SandboxFailed}
