package mcp

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"agentdesk/backend/mcp/mcptest"
)

// A server that announces tools/list_changed before and right after it answers initialize must
// never crash the client: the notice waits for the session, which it finds set. Run under the
// race detector (make test does), this also checks the session is published safely.
func TestNoticeDuringInitializeNeverCrashes(t *testing.T) {
	const rounds = 300
	workspace, dataDir := t.TempDir(), t.TempDir()
	cfg := Config{Name: "early", Transport: Stdio, Command: fixture, Env: map[string]string{mcptest.EarlyNoticeEnv: "1"}}
	for i := range rounds {
		listings := make(chan int, 8)
		c, err := dial(context.Background(), dialSpec{cfg: cfg, workspace: workspace, dataDir: dataDir, version: "test",
			getenv: func(string) string { return "" }, onList: func(tools []*mcp.Tool) { listings <- len(tools) }})
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if n := <-listings; n != 9 {
			t.Fatalf("round %d: dial listed %d tools", i, n)
		}
		c.close()
	}
}
