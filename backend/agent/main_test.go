package agent

import (
	"os"
	"testing"

	"agentdesk/backend/sandbox"
)

// TestMain lets bash calls re-execute this test binary as the sandbox helper.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	os.Exit(m.Run())
}
