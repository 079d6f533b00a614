package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/mcp/mcptest"
)

// An editor's mcpServers reach the same host: the session's turns call their tools through the
// gate, and no other session sees them.
func TestACPForwardsTheEditorsMCPServers(t *testing.T) {
	fixture, err := mcptest.BuildFixture(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script, record := filepath.Join(dir, "script.json"), filepath.Join(dir, "record.json")
	os.WriteFile(script, []byte(`{"responses":[{"tool_calls":[{"name":"mcp__ed__echo","input":{"text":"from editor"}}]},{"text":"done"}]}`), 0o600)
	toAgent, clientOut := io.Pipe()
	clientIn, fromAgent := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := Main([]string{"acp", "--data-dir", dir, "--script", script, "--record", record, "--permission", "full"},
			Env{Stdin: toAgent, Stdout: fromAgent, Stderr: &stderr, Getenv: func(string) string { return "" }, Desktop: func(*Context) error { return nil }})
		fromAgent.Close()
		done <- code
	}()
	conn := acp.NewClientSideConnection(&acpClient{}, clientOut, clientIn)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ir, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	if err != nil || !ir.AgentCapabilities.McpCapabilities.Http {
		t.Fatalf("initialize: %+v %v", ir.AgentCapabilities, err)
	}
	servers := []acp.McpServer{{Stdio: &acp.McpServerStdio{Name: "ed", Command: fixture, Args: []string{}, Env: []acp.EnvVariable{}}}}
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: servers})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: s.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("echo")}}); err != nil {
		t.Fatal(err)
	}
	clientOut.Close()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	rec, err := os.ReadFile(record)
	if err != nil || !strings.Contains(string(rec), "echo: from editor") || !strings.Contains(string(rec), `"mcp__ed__echo"`) {
		t.Fatalf("the model did not get the editor's tool or its result (%v):\n%s\n%s", err, rec, stderr.String())
	}
}
