package server

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// wireLog keeps every line the server wrote, in order.
type wireLog struct {
	w     io.Writer
	mu    sync.Mutex
	lines []string
}

func (l *wireLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.lines = append(l.lines, strings.TrimSpace(string(p)))
	l.mu.Unlock()
	return l.w.Write(p)
}

// client is a Go ACP client (the SDK's client side) collecting updates.
type client struct {
	mu      sync.Mutex
	updates []acp.SessionNotification
	// pick, when set, chooses the answer to a permission request; else allow_once.
	pick func(acp.RequestPermissionRequest) string
}

func (c *client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	c.mu.Unlock()
	return nil
}

func (c *client) RequestPermission(_ context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	pick := c.pick
	c.mu.Unlock()
	if pick != nil {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(pick(req)))}, nil
	}
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(OptAllowOnce)}, nil
}
func (c *client) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, nil
}
func (c *client) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, nil
}
func (c *client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, nil
}
func (c *client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, nil
}
func (c *client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, nil
}
func (c *client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, nil
}
func (c *client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, nil
}

func serve(t *testing.T, script string) (*acp.ClientSideConnection, *client, *wireLog, *store.Store) {
	t.Helper()
	dataDir := t.TempDir()
	st, err := store.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	b := bus.New()
	reg := decision.New(st, b.Publish, decision.Options{})
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	prov, err := scripted.FromBytes("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	rt := agent.New(agent.Options{Store: st, Publish: b.Publish, Decisions: reg, Tools: tool.NewRegistry(),
		Provider: agent.Fixed(prov), Messages: msgs, DataDir: dataDir})
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	wire := &wireLog{w: fromServer}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Serve(ctx, Options{Store: st, Runtime: rt, Decisions: reg, Bus: b, Messages: msgs, Lang: "en"}, toServer, wire)
		close(done)
	}()
	c := &client{}
	conn := acp.NewClientSideConnection(c, clientOut, clientIn)
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		<-done
		st.Close()
	})
	return conn, c, wire, st
}

func TestSetModeRepliesThenAnnounces(t *testing.T) {
	conn, c, wire, _ := serve(t, `{"responses":[]}`)
	ctx := context.Background()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "debug"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.mu.Lock()
		n := len(c.updates)
		c.mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	wire.mu.Lock()
	defer wire.mu.Unlock()
	reply, update := -1, -1
	for i, line := range wire.lines {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Params struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					CurrentModeID string `json:"currentModeId"`
				} `json:"update"`
			} `json:"params"`
		}
		json.Unmarshal([]byte(line), &m)
		if m.Method == "" && string(m.ID) == "3" {
			reply = i
		}
		if m.Params.Update.SessionUpdate == "current_mode_update" && m.Params.Update.CurrentModeID == "debug" {
			update = i
		}
	}
	if reply < 0 || update < 0 || update < reply {
		t.Fatalf("set_mode replies (line %d), then sends current_mode_update (line %d):\n%s", reply, update, strings.Join(wire.lines, "\n"))
	}
}

func TestUnknownModeIsAnErrorThatChangesNothing(t *testing.T) {
	conn, _, _, st := serve(t, `{"responses":[]}`)
	ctx := context.Background()
	conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "read-only"})
	re, ok := err.(*acp.RequestError)
	if !ok || re.Code != -32602 || !strings.Contains(re.Message, "read-only") {
		t.Fatalf("an unknown id is invalid params with a message naming it: %v", err)
	}
	events, _ := st.Events(string(s.SessionId))
	if len(events) != 1 {
		t.Fatalf("only the session's first mode.set is logged: %d events", len(events))
	}
}

func TestPromptRunsTheRealRuntime(t *testing.T) {
	conn, c, _, st := serve(t, `{"responses":[{"tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]},{"text":"ran it"}]}`)
	ctx := context.Background()
	conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: s.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("run echo")}})
	if err != nil || resp.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	c.mu.Lock()
	var kinds []string
	var text, output string
	for _, n := range c.updates {
		u := n.Update
		switch {
		case u.ToolCall != nil:
			kinds = append(kinds, "tool_call:"+string(u.ToolCall.Status))
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil:
			kinds = append(kinds, "tool_call_update:"+string(*u.ToolCallUpdate.Status))
			if len(u.ToolCallUpdate.Content) > 0 && u.ToolCallUpdate.Content[0].Content != nil {
				output = u.ToolCallUpdate.Content[0].Content.Content.Text.Text
			}
		case u.AgentMessageChunk != nil:
			text += u.AgentMessageChunk.Content.Text.Text
		}
	}
	c.mu.Unlock()
	if len(kinds) < 2 || kinds[0] != "tool_call:pending" || kinds[len(kinds)-1] != "tool_call_update:completed" {
		t.Fatalf("the call was shown pending, then completed: %v", kinds)
	}
	if !strings.Contains(output, "hi") || text != "ran it" {
		t.Fatalf("output %q, text %q", output, text)
	}
	sessions, _ := st.ListSessions()
	if len(sessions) != 1 || sessions[0].ID != string(s.SessionId) {
		t.Fatalf("an ACP session is an ordinary session: %+v", sessions)
	}
}
