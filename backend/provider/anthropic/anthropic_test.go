package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
	"agentdesk/backend/provider/ssetest"
)

const testKey = "sk-ant-test-0123456789"

// Frames in the documented Messages streaming format.
const (
	messageStart = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}`
	textStart    = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	ping         = `{"type": "ping"}`
)

func textDelta(i int, s string) string {
	b, _ := json.Marshal(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": s}})
	return string(b)
}

func jsonDelta(i int, s string) string {
	b, _ := json.Marshal(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": s}})
	return string(b)
}

func blockStop(i int) string {
	b, _ := json.Marshal(map[string]any{"type": "content_block_stop", "index": i})
	return string(b)
}

func messageEnd(s *ssetest.Stream, reason string) {
	s.Event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+reason+`","stop_sequence":null},"usage":{"output_tokens":42}}`)
	s.Event("message_stop", `{"type":"message_stop"}`)
}

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
	return New(Options{Key: testKey, BaseURL: srv.URL})
}

func TestTextDeltasArriveInOrder(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Event("message_start", messageStart)
		s.Event("content_block_start", textStart)
		s.Event("ping", ping)
		for _, piece := range []string{"Hel", "lo", ", world"} {
			s.Event("content_block_delta", textDelta(0, piece))
		}
		s.Event("content_block_stop", blockStop(0))
		messageEnd(s, "end_turn")
	})
	var got events
	resp, err := newProvider(srv).Stream(context.Background(), llm.Request{
		System:   "be brief",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}},
	}, got.emit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.texts(), "|") != "Hel|lo|, world" || resp.Text != "Hello, world" {
		t.Fatalf("deltas %q, text %q", got.texts(), resp.Text)
	}
	if resp.StopReason != llm.StopEndTurn || resp.Usage != (llm.Usage{InputTokens: 25, OutputTokens: 42}) {
		t.Fatalf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	body := srv.Body(t, 0)
	if _, ok := body["tools"]; ok {
		t.Fatalf("zero tools must send no tools field: %v", body)
	}
	if body["model"] != DefaultModel || body["stream"] != true || body["max_tokens"] != float64(defaultMaxTokens) {
		t.Fatalf("body: %v", body)
	}
	if sys, _ := json.Marshal(body["system"]); !strings.Contains(string(sys), "be brief") {
		t.Fatalf("system: %s", sys)
	}
	h := srv.Header(0)
	if !strings.Contains(h.Get("Authorization")+h.Get("X-Api-Key"), testKey) {
		t.Fatalf("the key was not sent: %v", h)
	}
}

func TestToolInputSplitAcrossChunksIsAssembled(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Event("message_start", messageStart)
		s.Event("content_block_start", textStart)
		s.Event("content_block_delta", textDelta(0, "Running it."))
		s.Event("content_block_stop", blockStop(0))
		s.Event("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01","name":"bash","input":{}}}`)
		for _, part := range []string{"", `{"comm`, `and": "ec`, `ho hi", "timeo`, `ut_s": 5}`} {
			s.Event("content_block_delta", jsonDelta(1, part))
		}
		s.Event("content_block_stop", blockStop(1))
		messageEnd(s, "tool_use")
	})
	var got events
	resp, err := newProvider(srv).Stream(context.Background(), toolRequest(), got.emit)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.list) != 2 || got.list[1].Kind != llm.EventToolCall {
		t.Fatalf("events: %+v", got.list)
	}
	call := got.list[1].Call
	var input struct {
		Command  string `json:"command"`
		TimeoutS int    `json:"timeout_s"`
	}
	if err := json.Unmarshal(call.Input, &input); err != nil || input.Command != "echo hi" || input.TimeoutS != 5 {
		t.Fatalf("input %s: %v", call.Input, err)
	}
	if call.ID != "toolu_01" || call.Name != "bash" || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "toolu_01" {
		t.Fatalf("call %+v, response %+v", call, resp)
	}
	if resp.StopReason != llm.StopToolUse || resp.Text != "Running it." {
		t.Fatalf("response %+v", resp)
	}
	checkToolRequestBody(t, srv.Body(t, 0))
}

// toolRequest carries one tool and a history with a call and its (failed) result.
func toolRequest() llm.Request {
	return llm.Request{
		Model: "claude-test",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "list files"},
			{Role: llm.RoleAssistant, Text: "Looking.", ToolCalls: []llm.ToolCall{{ID: "toolu_00", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}}},
			{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{CallID: "toolu_00", Name: "bash", Content: "WRITE_DISABLED_IN_READ_ONLY", IsError: true}}},
		},
		Tools: []llm.ToolDef{{
			Name:        "bash",
			Description: "Run a shell command",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"],"additionalProperties":false}`),
		}},
		MaxTokens: 1000,
	}
}

func checkToolRequestBody(t *testing.T, body map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	var req struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		Tools     []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	if req.Model != "claude-test" || req.MaxTokens != 1000 || len(req.Tools) != 1 || req.Tools[0].Name != "bash" || req.Tools[0].Description != "Run a shell command" {
		t.Fatalf("request: %s", raw)
	}
	schema := req.Tools[0].InputSchema
	if schema["type"] != "object" || schema["properties"] == nil || schema["additionalProperties"] != false || len(schema["required"].([]any)) != 1 {
		t.Fatalf("schema: %v", schema)
	}
	if len(req.Messages) != 3 {
		t.Fatalf("messages: %s", raw)
	}
	use, result := req.Messages[1].Content[1], req.Messages[2].Content[0]
	if use["type"] != "tool_use" || use["id"] != "toolu_00" || use["input"].(map[string]any)["command"] != "ls" {
		t.Fatalf("tool_use block: %v", use)
	}
	if result["type"] != "tool_result" || result["tool_use_id"] != "toolu_00" || result["is_error"] != true ||
		!strings.Contains(string(mustJSON(result["content"])), "WRITE_DISABLED_IN_READ_ONLY") {
		t.Fatalf("tool_result block: %v", result)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestErrorEventMidStream(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Event("message_start", messageStart)
		s.Event("content_block_start", textStart)
		s.Event("content_block_delta", textDelta(0, "Part"))
		s.Event("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	})
	var got events
	resp, err := newProvider(srv).Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, got.emit)
	e := errs.As(err)
	if e.Kind != llm.StreamFailed || e.Args["Provider"] != Name || e.Args["Message"] != "Overloaded" {
		t.Fatalf("err: %v", err)
	}
	if resp.Text != "Part" || len(got.texts()) != 1 {
		t.Fatalf("partial response %+v, events %+v", resp, got.list)
	}
}

func TestHTTPErrorStatusCarriesTheVendorMessage(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		// The message echoes the key to prove it is redacted on the way out.
		s.Error(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key `+testKey+`"},"request_id":"req_1"}`)
	})
	_, err := newProvider(srv).Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, nil)
	e := errs.As(err)
	if e.Kind != llm.HTTPFailed || e.Args["Status"] != 401 || e.Args["Provider"] != Name ||
		!strings.Contains(e.Args["Message"].(string), "invalid x-api-key") {
		t.Fatalf("err: %v", err)
	}
	if strings.Contains(err.Error(), testKey) {
		t.Fatalf("the key leaked into the error: %v", err)
	}
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Event("message_start", messageStart)
		s.Event("content_block_start", textStart)
		s.Event("content_block_delta", textDelta(0, "thinking"))
		s.Hang()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	_, err := newProvider(srv).Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, func(llm.Event) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err: %v", err)
	}
	if d := time.Since(started); d > 2*time.Second {
		t.Fatalf("cancel took %v", d)
	}
}

func TestStreamCutBeforeMessageStopIsAnError(t *testing.T) {
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Event("message_start", messageStart)
		s.Event("content_block_start", textStart)
		s.Event("content_block_delta", textDelta(0, "cut"))
	})
	_, err := newProvider(srv).Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, nil)
	if errs.KindOf(err) != llm.StreamFailed {
		t.Fatalf("err: %v", err)
	}
}

// A request that never got an answer is "unreachable", with the key redacted from the detail.
func TestNoAnswerIsUnreachable(t *testing.T) {
	p := New(Options{Key: testKey})
	err := p.failure(&url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/messages?k=" + testKey, Err: errors.New("connection refused")})
	if errs.KindOf(err) != llm.Unreachable || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err: %v", err)
	}
}
