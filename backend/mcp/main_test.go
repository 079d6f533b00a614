package mcp

import (
	"fmt"
	"os"
	"testing"

	"agentdesk/backend/mcp/mcptest"
	"agentdesk/backend/sandbox"
)

// fixture is the stdio MCP server every test starts, built once for the test binary.
var fixture string

// TestMain lets stdio servers start through this test binary as the sandbox helper, and builds
// the fixture server.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	dir, err := os.MkdirTemp("", "agentdesk-mcp-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if fixture, err = mcptest.BuildFixture(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
