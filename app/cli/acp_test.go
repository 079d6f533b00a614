package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/store"
)

// acpClient is the smallest ACP client: it keeps the text the agent streams.
type acpClient struct {
	mu   sync.Mutex
	text strings.Builder
}

func (c *acpClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	if m := n.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
		c.mu.Lock()
		c.text.WriteString(m.Content.Text.Text)
		c.mu.Unlock()
	}
	return nil
}
func (c *acpClient) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
}
func (c *acpClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, nil
}
func (c *acpClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, nil
}
func (c *acpClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, nil
}
func (c *acpClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, nil
}
func (c *acpClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, nil
}
func (c *acpClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, nil
}
func (c *acpClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, nil
}

// `agentdesk acp` speaks ACP on stdin/stdout, logs elsewhere, and its sessions are ordinary
// sessions that `sessions list` shows.
func TestACPCommandServesAnEditor(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	os.WriteFile(script, []byte(`{"responses":[{"text":"hello editor"}]}`), 0o600)
	toAgent, clientOut := io.Pipe()
	clientIn, fromAgent := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := Main([]string{"acp", "--data-dir", dir, "--script", script, "--permission", "auto"}, Env{Stdin: toAgent, Stdout: fromAgent, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Desktop: func(*Context) error { return nil }})
		fromAgent.Close()
		done <- code
	}()
	c := &acpClient{}
	conn := acp.NewClientSideConnection(c, clientOut, clientIn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ir, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	if err != nil || !ir.AgentCapabilities.LoadSession {
		t.Fatalf("initialize: %+v %v", ir, err)
	}
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil || s.Modes == nil || s.Modes.CurrentModeId != "smart" {
		t.Fatalf("new session: %+v %v", s, err)
	}
	resp, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: s.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("hi")}})
	if err != nil || resp.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	c.mu.Lock()
	text := c.text.String()
	c.mu.Unlock()
	if text != "hello editor" {
		t.Fatalf("streamed %q", text)
	}
	clientOut.Close()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, _ := st.ListSessions()
	if len(rows) != 1 || rows[0].ID != string(s.SessionId) || rows[0].PermissionMode != "auto" {
		t.Fatalf("the ACP session is an ordinary session with the --permission given: %+v", rows)
	}
}

func TestACPCommandRefusesABadPermission(t *testing.T) {
	code, _, errOut := run(t, nil, "acp", "--data-dir", t.TempDir(), "--permission", "bypass")
	if code != ExitUsage || !strings.Contains(errOut, "bypass") {
		t.Fatalf("exit %d: %q", code, errOut)
	}
}
