package session

import (
	"os"
	"testing"

	"agentdesk/backend/sandbox"
)

// TestMain lets the sandbox helper start under this test binary: set-up commands run in it.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	os.Exit(m.Run())
}
