package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
	"agentdesk/backend/provider/ssetest"
)

const testKey = "sk-proj-test-0123456789"

// chunk builds one chat.completion.chunk in the documented streaming format.
func chunk(delta map[string]any, finish any) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4.1",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
	})
	return string(b)
}

func toolDelta(index int, id, name, args string) string {
	call := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		call["id"], call["type"] = id, "function"
		call["function"].(map[string]any)["name"] = name
	}
	return chunk(map[string]any{"tool_calls": []any{call}}, nil)
}

const usageChunk = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4.1","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":12,"total_tokens":42}}`

type events struct{ list []llm.Event }

func (e *events) emit(ev llm.Event) { e.list = append(e.list, ev) }

func (e *events) texts() []string {
	var out []string
	for _, ev := range e.list {
		if ev.Kind == llm.EventTextDelta {
			out = append(out, ev.Text)
		}
	}
	return out
}

func newProvider(srv *ssetest.Server) *Provider {
	return New(Options{Key: testKey, BaseURL: srv.URL + "/v1"})
}

func userHi() llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}
}

func TestTextDeltasArriveInOrder(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Data(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
		for _, piece := range []string{"Hel", "lo", ", world"} {
			s.Data(chunk(map[string]any{"content": piece}, nil))
		}
		s.Data(chunk(map[string]any{}, "stop"))
		s.Data(usageChunk)
		s.Data("[DONE]")
	})
	var got events
	req := userHi()
	req.System = "be brief"
	resp, err := newProvider(srv).Stream(context.Background(), req, got.emit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.texts(), "|") != "Hel|lo|, world" || resp.Text != "Hello, world" {
		t.Fatalf("deltas %q, text %q", got.texts(), resp.Text)
	}
	if resp.StopReason != llm.StopEndTurn || resp.Usage != (llm.Usage{InputTokens: 30, OutputTokens: 12}) {
		t.Fatalf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	body := srv.Body(t, 0)
	if _, ok := body["tools"]; ok {
		t.Fatalf("zero tools must send no tools field: %v", body)
	}
	msgs := body["messages"].([]any)
	if body["model"] != DefaultModel || body["stream"] != true || len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" {
		t.Fatalf("body: %v", body)
	}
	if got := srv.Header(0).Get("Authorization"); got != "Bearer "+testKey {
		t.Fatalf("Authorization = %q", got)
	}
}

func TestToolCallArgumentsSplitAcrossChunksAreAssembled(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Data(chunk(map[string]any{"role": "assistant", "content": nil}, nil))
		s.Data(toolDelta(0, "call_a", "read", ""))
		for _, part := range []string{`{"pa`, `th": "REA`, `DME.md"}`} {
			s.Data(toolDelta(0, "", "", part))
		}
		s.Data(toolDelta(1, "call_b", "bash", ""))
		for _, part := range []string{`{"command"`, `: "echo `, `hi"`, `}`} {
			s.Data(toolDelta(1, "", "", part))
		}
		s.Data(chunk(map[string]any{}, "tool_calls"))
		s.Data("[DONE]")
	})
	var got events
	resp, err := newProvider(srv).Stream(context.Background(), toolRequest(), got.emit)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{
		{ID: "call_a", Name: "read", Input: json.RawMessage(`{"path": "README.md"}`)},
		{ID: "call_b", Name: "bash", Input: json.RawMessage(`{"command": "echo hi"}`)},
	}
	if len(got.list) != 2 || len(resp.ToolCalls) != 2 {
		t.Fatalf("events %+v, response %+v", got.list, resp)
	}
	for i, w := range want {
		for _, c := range []llm.ToolCall{*got.list[i].Call, resp.ToolCalls[i]} {
			if c.ID != w.ID || c.Name != w.Name || string(c.Input) != string(w.Input) {
				t.Fatalf("call %d = %+v (input %s), want %+v", i, c, c.Input, w)
			}
		}
	}
	if resp.StopReason != llm.StopToolUse {
		t.Fatalf("stop %q", resp.StopReason)
	}
	checkToolRequestBody(t, srv.Body(t, 0))
}

// A call is emitted as soon as its arguments are complete, before the stream ends: the server
// holds back the finish chunk until the client has seen the call (or gives up after 2 s).
func TestToolCallIsEmittedWhenComplete(t *testing.T) {
	release := make(chan struct{})
	var early atomic.Bool
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Data(toolDelta(0, "call_a", "bash", `{"command":`))
		s.Data(toolDelta(0, "", "", `"ls"}`))
		select {
		case <-release:
			early.Store(true)
		case <-time.After(2 * time.Second):
		}
		s.Data(chunk(map[string]any{}, "tool_calls"))
		s.Data("[DONE]")
	})
	_, err := newProvider(srv).Stream(context.Background(), userHi(), func(ev llm.Event) {
		if ev.Kind == llm.EventToolCall {
			close(release)
		}
	})
	if err != nil || !early.Load() {
		t.Fatalf("early %v, err %v", early.Load(), err)
	}
}

func toolRequest() llm.Request {
	return llm.Request{
		System: "sys",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "list files"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_0", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}}},
			{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{CallID: "call_0", Name: "bash", Content: "denied", IsError: true}}},
		},
		Tools: []llm.ToolDef{{
			Name:        "bash",
			Description: "Run a shell command",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`),
		}},
		MaxTokens: 1000,
	}
}

func checkToolRequestBody(t *testing.T, body map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	var req struct {
		MaxTokens int `json:"max_tokens"`
		Tools     []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string         `json:"name"`
				Description string         `json:"description"`
				Parameters  map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	// A compatible (non-OpenAI) server gets max_tokens, the field every one of them knows.
	if req.MaxTokens != 1000 || len(req.Tools) != 1 || req.Tools[0].Type != "function" || req.Tools[0].Function.Name != "bash" ||
		req.Tools[0].Function.Parameters["properties"] == nil || req.Tools[0].Function.Description != "Run a shell command" {
		t.Fatalf("request: %s", raw)
	}
	roles := []string{}
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool" {
		t.Fatalf("roles %v: %s", roles, raw)
	}
	call, result := req.Messages[2].ToolCalls, req.Messages[3]
	if len(call) != 1 || call[0].ID != "call_0" || call[0].Function.Arguments != `{"command":"ls"}` {
		t.Fatalf("assistant tool call: %s", raw)
	}
	if result.ToolCallID != "call_0" || !strings.Contains(result.Content.(string), "denied") {
		t.Fatalf("tool message: %s", raw)
	}
}

func TestErrorObjectMidStream(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Data(chunk(map[string]any{"content": "Part"}, nil))
		s.Data(`{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)
	})
	var got events
	resp, err := newProvider(srv).Stream(context.Background(), userHi(), got.emit)
	e := errs.As(err)
	if e.Kind != llm.StreamFailed || e.Args["Provider"] != Name || !strings.Contains(e.Args["Message"].(string), "server had an error") {
		t.Fatalf("err: %v", err)
	}
	if resp.Text != "Part" || len(got.texts()) != 1 {
		t.Fatalf("partial response %+v", resp)
	}
}

func TestHTTPErrorStatusCarriesTheVendorMessage(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		// The message echoes the key to prove it is redacted on the way out.
		s.Error(401, `{"error":{"message":"Incorrect API key provided: `+testKey+`.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)
	})
	_, err := newProvider(srv).Stream(context.Background(), userHi(), nil)
	e := errs.As(err)
	if e.Kind != llm.HTTPFailed || e.Args["Status"] != 401 || e.Args["Provider"] != Name ||
		!strings.Contains(e.Args["Message"].(string), "Incorrect API key provided") {
		t.Fatalf("err: %v", err)
	}
	if strings.Contains(err.Error(), testKey) {
		t.Fatalf("the key leaked into the error: %v", err)
	}
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Data(chunk(map[string]any{"content": "thinking"}, nil))
		s.Hang()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	_, err := newProvider(srv).Stream(ctx, userHi(), func(llm.Event) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err: %v", err)
	}
	if d := time.Since(started); d > 2*time.Second {
		t.Fatalf("cancel took %v", d)
	}
}

// OpenAI itself gets max_completion_tokens: max_tokens is deprecated there.
func TestOfficialEndpointUsesMaxCompletionTokens(t *testing.T) {
	p := New(Options{Key: testKey})
	params, err := p.params(llm.Request{MaxTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(params)
	if !strings.Contains(string(raw), `"max_completion_tokens":500`) || strings.Contains(string(raw), `"max_tokens"`) {
		t.Fatalf("params: %s", raw)
	}
}

// Some local servers finish with "stop" although they called a tool; the calls decide.
func TestStopReasons(t *testing.T) {
	for _, c := range []struct {
		finish string
		tools  bool
		want   string
	}{
		{"stop", false, llm.StopEndTurn}, {"stop", true, llm.StopToolUse}, {"tool_calls", true, llm.StopToolUse},
		{"length", false, llm.StopMaxTokens}, {"content_filter", false, "content_filter"},
	} {
		if got := stopReason(c.finish, c.tools); got != c.want {
			t.Errorf("stopReason(%q, %v) = %q, want %q", c.finish, c.tools, got, c.want)
		}
	}
}
