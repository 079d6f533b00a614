package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/provider/ssetest"
)

// record mirrors the documented file shape; outside tests read exactly these names.
type record struct {
	Requests []struct {
		Provider  string `json:"provider"`
		Model     string `json:"model"`
		System    string `json:"system"`
		MaxTokens int    `json:"max_tokens"`
		Messages  []struct {
			Role      string `json:"role"`
			Text      string `json:"text"`
			ToolCalls []struct {
				ID    string          `json:"id"`
				Name  string          `json:"name"`
				Input json.RawMessage `json:"input"`
			} `json:"tool_calls"`
			ToolResults []struct {
				CallID  string `json:"call_id"`
				Name    string `json:"name"`
				Content string `json:"content"`
				IsError bool   `json:"is_error"`
			} `json:"tool_results"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	} `json:"requests"`
}

func readRecord(t *testing.T, path string) (record, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("the record is not valid JSON: %v\n%s", err, data)
	}
	return r, string(data)
}

func writeScript(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func chatRequest() Request {
	return Request{System: "You are in Chat.", Messages: []Message{{Role: RoleUser, Text: "hello"}}}
}

func toolTurnRequest() Request {
	return Request{
		Model:  "m-1",
		System: "You are in Execute.",
		Messages: []Message{
			{Role: RoleUser, Text: "write a file"},
			{Role: RoleAssistant, Text: "Writing.", ToolCalls: []ToolCall{{ID: "call_1", Name: "write", Input: json.RawMessage(`{"path":"a.txt","content":"x"}`)}}},
			{Role: RoleUser, ToolResults: []ToolResult{{CallID: "call_1", Name: "write", Content: "WRITE_DISABLED_IN_READ_ONLY", IsError: true}}},
		},
		Tools: []ToolDef{{Name: "write", Description: "Write a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}},
	}
}

func TestRecordShape(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "record.json")
	p, err := New(Config{Kind: KindScripted, ScriptPath: writeScript(t, `{"responses":[{"text":"hi"},{"text":"ok"}]}`), RecordPath: path})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := readRecord(t, path); r.Requests == nil || len(r.Requests) != 0 {
		t.Fatalf("New must write an empty record: %+v", r)
	}
	if _, err := p.Stream(context.Background(), chatRequest(), nil); err != nil {
		t.Fatal(err)
	}
	r, raw := readRecord(t, path)
	if len(r.Requests) != 1 || r.Requests[0].Tools == nil || len(r.Requests[0].Tools) != 0 || !strings.Contains(raw, `"tools": []`) {
		t.Fatalf("Chat must record an empty tools list:\n%s", raw)
	}
	if _, err := p.Stream(context.Background(), toolTurnRequest(), nil); err != nil {
		t.Fatal(err)
	}
	r, raw = readRecord(t, path)
	if len(r.Requests) != 2 {
		t.Fatalf("record:\n%s", raw)
	}
	checkToolTurn(t, r, raw)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func checkToolTurn(t *testing.T, r record, raw string) {
	t.Helper()
	req := r.Requests[1]
	if req.Provider != KindScripted || req.Model != "m-1" || req.System != "You are in Execute." || len(req.Messages) != 3 {
		t.Fatalf("request:\n%s", raw)
	}
	call := req.Messages[1].ToolCalls
	if req.Messages[1].Role != "assistant" || req.Messages[1].Text != "Writing." || len(call) != 1 ||
		call[0].ID != "call_1" || call[0].Name != "write" || inputPath(call[0].Input) != "a.txt" {
		t.Fatalf("assistant message:\n%s", raw)
	}
	res := req.Messages[2].ToolResults
	if len(res) != 1 || res[0].CallID != "call_1" || res[0].Name != "write" || res[0].Content != "WRITE_DISABLED_IN_READ_ONLY" || !res[0].IsError {
		t.Fatalf("tool results:\n%s", raw)
	}
	tool := req.Tools
	if len(tool) != 1 || tool[0].Name != "write" || tool[0].Description != "Write a file" || !strings.Contains(string(tool[0].InputSchema), `"properties"`) {
		t.Fatalf("tools:\n%s", raw)
	}
}

func inputPath(raw json.RawMessage) string {
	var in struct{ Path string }
	json.Unmarshal(raw, &in)
	return in.Path
}

// A request whose answer fails is still recorded: the record is what the model was asked.
func TestFailedRequestsAreRecordedToo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "record.json")
	p, err := New(Config{Kind: KindScripted, ScriptPath: writeScript(t, `{"responses":[]}`), RecordPath: path})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stream(context.Background(), chatRequest(), nil); errs.KindOf(err) != ScriptExhausted {
		t.Fatalf("err: %v", err)
	}
	if r, _ := readRecord(t, path); len(r.Requests) != 1 {
		t.Fatalf("requests: %d", len(r.Requests))
	}
}

func TestUnwritableRecordFailsAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "record.json")
	_, err := New(Config{Kind: KindScripted, ScriptPath: writeScript(t, `{"responses":[]}`), RecordPath: path})
	if e := errs.As(err); e.Kind != RecordFailed || e.Args["Path"] != path {
		t.Fatalf("err: %v", err)
	}
}

func TestConcurrentRequestsAllRecorded(t *testing.T) {
	const n = 20
	script := `{"responses":[` + strings.TrimSuffix(strings.Repeat(`{"text":"ok"},`, n), ",") + `]}`
	inner, err := scripted.FromBytes("inline", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "record.json")
	rec, err := Record(inner, path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := rec.Stream(context.Background(), chatRequest(), nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if r, _ := readRecord(t, path); len(r.Requests) != n {
		t.Fatalf("recorded %d of %d", len(r.Requests), n)
	}
}

// The key is sent to the vendor and nowhere else: not the record, not the errors.
func TestKeyNeverReachesRecordOrErrors(t *testing.T) {
	const key = "sk-ant-secret-key-value-42"
	var fail atomic.Bool
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		if fail.Load() {
			s.Error(403, `{"type":"error","error":{"type":"permission_error","message":"key `+key+` lacks access"}}`)
			return
		}
		s.Begin(200)
		s.Event("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"x","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`)
		s.Event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}`)
		s.Event("message_stop", `{"type":"message_stop"}`)
	})
	path := filepath.Join(t.TempDir(), "record.json")
	p, err := New(Config{Kind: KindAnthropic, BaseURL: srv.URL, RecordPath: path, Getenv: env("ANTHROPIC_API_KEY", key)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stream(context.Background(), toolTurnRequest(), nil); err != nil {
		t.Fatal(err)
	}
	fail.Store(true)
	_, err = p.Stream(context.Background(), chatRequest(), nil)
	if errs.KindOf(err) != HTTPFailed || strings.Contains(err.Error(), key) || strings.Contains(errs.As(err).Args["Message"].(string), key) {
		t.Fatalf("err: %v", err)
	}
	h := srv.Header(0)
	if !strings.Contains(h.Get("Authorization")+h.Get("X-Api-Key"), key) {
		t.Fatalf("the key was not sent: %v", h)
	}
	r, raw := readRecord(t, path)
	if strings.Contains(raw, key) || len(r.Requests) != 2 || r.Requests[1].Model != "claude-sonnet-4-5" || r.Requests[1].Provider != KindAnthropic {
		t.Fatalf("record:\n%s", raw)
	}
}
