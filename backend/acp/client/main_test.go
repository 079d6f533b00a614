package client

import (
	"os"
	"testing"

	"agentdesk/backend/sandbox"
)

// TestMain lets agents start under this test binary as the supervising helper, as they do
// under agentdesk itself.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	os.Exit(m.Run())
}
