package anthropic

import (
	"context"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
	"agentdesk/backend/provider/ssetest"
)

// The API's refusal of a prompt longer than the window is its own kind, so the runtime can
// compact and retry; other 400s stay HTTP failures.
func TestAPromptTooLongIsAContextOverflow(t *testing.T) {
	body := `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 212000 tokens > 200000 maximum"},"request_id":"req_1"}`
	srv := ssetest.Start(t, func(s *ssetest.Stream) { s.Error(400, body) })
	_, err := newProvider(srv).Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, nil)
	if e := errs.As(err); e.Kind != llm.ContextOverflow || e.Args["Provider"] != Name {
		t.Fatalf("err: %v", err)
	}
	other := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Error(400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`)
	})
	_, err = newProvider(other).Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, nil)
	if e := errs.As(err); e.Kind != llm.HTTPFailed {
		t.Fatalf("err: %v", err)
	}
}

// The window comes from the catalogue unless the options name one; the usage the stream
// reports counts cached input too.
func TestTheWindowAndTheUsageCountCachedInput(t *testing.T) {
	if w := New(Options{Key: "k"}).ContextWindow(); w != llm.DefaultWindowClaude {
		t.Fatalf("default window %d", w)
	}
	if w := New(Options{Key: "k", ContextWindow: 1234}).ContextWindow(); w != 1234 {
		t.Fatalf("configured window %d", w)
	}
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Begin(200)
		s.Event("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"cache_read_input_tokens":1000,"cache_creation_input_tokens":200,"output_tokens":1}}}`)
		s.Event("content_block_start", textStart)
		s.Event("content_block_delta", textDelta(0, "ok"))
		s.Event("content_block_stop", blockStop(0))
		messageEnd(s, "end_turn")
	})
	resp, err := newProvider(srv).Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, nil)
	if err != nil || resp.Usage.InputTokens != 1225 || resp.Usage.OutputTokens != 42 {
		t.Fatalf("usage %+v, %v", resp.Usage, err)
	}
}
