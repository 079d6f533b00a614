package agent

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"agentdesk/backend/sandbox"
)

// TestMain lets bash calls re-execute this test binary as the sandbox helper, and fails the
// package when a test leaves a goroutine behind: a turn, a timer flush, a bus subscriber, an
// MCP connection. The built fixture server is removed once every test ran.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		removeFixture()
		os.Exit(code)
	}))
}
