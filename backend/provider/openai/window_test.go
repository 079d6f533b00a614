package openai

import (
	"context"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
	"agentdesk/backend/provider/ssetest"
)

// OpenAI's context_length_exceeded, and a local server's own wording of it, are a context
// overflow; other 400s stay HTTP failures.
func TestContextLengthExceededIsAContextOverflow(t *testing.T) {
	for _, body := range []string{
		`{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
		`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`,
	} {
		srv := ssetest.Start(t, func(s *ssetest.Stream) { s.Error(400, body) })
		_, err := newProvider(srv).Stream(context.Background(), userHi(), nil)
		if e := errs.As(err); e.Kind != llm.ContextOverflow || e.Args["Provider"] != Name {
			t.Fatalf("%s: err %v", body, err)
		}
	}
	srv := ssetest.Start(t, func(s *ssetest.Stream) {
		s.Error(400, `{"error":{"message":"Invalid value for 'temperature'","type":"invalid_request_error","param":"temperature","code":"invalid_value"}}`)
	})
	_, err := newProvider(srv).Stream(context.Background(), userHi(), nil)
	if e := errs.As(err); e.Kind != llm.HTTPFailed {
		t.Fatalf("err: %v", err)
	}
}

func TestTheWindowOfTheModel(t *testing.T) {
	for model, want := range map[string]int{"": 1_047_576, "gpt-4o-2024-08-06": 128_000, "gpt-4": 8_192, "llama3.1:8b": llm.DefaultWindowUnknown} {
		if got := New(Options{Key: "k", Model: model}).ContextWindow(); got != want {
			t.Errorf("%q: window %d, want %d", model, got, want)
		}
	}
	if got := New(Options{Key: "k", Model: "llama3.1:8b", ContextWindow: 32768}).ContextWindow(); got != 32768 {
		t.Errorf("configured window %d", got)
	}
}
