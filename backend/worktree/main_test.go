package worktree

import (
	"os"
	"testing"

	"agentdesk/backend/sandbox"
)

// TestMain lets the sandbox helper start under this test binary.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	os.Exit(m.Run())
}
