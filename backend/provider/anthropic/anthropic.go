// Package anthropic streams the Anthropic Messages API through the official Go SDK.
package anthropic

import (
	"context"
	"errors"
	"net/url"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"agentdesk/backend/provider/llm"
)

const (
	// Name is the provider's name.
	Name = "anthropic"
	// DefaultModel is used when neither the config nor the request names one.
	DefaultModel = "claude-sonnet-4-5"
	// defaultMaxTokens fills the API's required max_tokens when the request leaves it at zero.
	defaultMaxTokens = 8192
)

// Options configure a Provider.
type Options = llm.Options

// Provider talks to the Messages API.
type Provider struct {
	client sdk.Client
	model  string
	key    string // kept only to redact it from any message that echoes it
	window int
}

// New builds a provider. The SDK's own environment lookups are switched off: the caller has
// already resolved the key and the base URL, and tests must not pick up the developer's key.
func New(o Options) *Provider {
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithAPIKey(o.Key)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	o = o.Resolved(DefaultModel)
	return &Provider{client: sdk.NewClient(opts...), model: o.Model, key: o.Key, window: o.ContextWindow}
}

// ContextWindow implements llm.Windowed: the window of the configured model.
func (p *Provider) ContextWindow() int { return p.window }

// Name implements provider.Provider.
func (p *Provider) Name() string { return Name }

// Model is the model used when a request names none.
func (p *Provider) Model() string { return p.model }

// Stream implements provider.Provider: the SDK decodes the server-sent events and Message.
// Accumulate assembles them (tool input arrives as partial JSON across input_json_delta
// events); each text delta is emitted at once and each tool call when its block stops.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.Event)) (llm.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return llm.Response{}, err
	}
	emit = llm.Emitter(emit)
	stream := p.client.Messages.NewStreaming(ctx, params)
	defer stream.Close()
	var acc sdk.Message
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := acc.Accumulate(ev); err != nil {
			return response(acc), llm.StreamError(Name, err.Error(), p.key)
		}
		if ctx.Err() != nil {
			break
		}
		forward(ev, &acc, emit)
		stopped = stopped || ev.Type == "message_stop"
	}
	if err := ctx.Err(); err != nil {
		return response(acc), err
	}
	if err := stream.Err(); err != nil {
		return response(acc), p.failure(err)
	}
	if !stopped {
		return response(acc), llm.StreamError(Name, "the stream ended before message_stop", p.key)
	}
	return response(acc), nil
}

// forward emits what one event completes: a text delta, or a tool call whose block stopped.
func forward(ev sdk.MessageStreamEventUnion, acc *sdk.Message, emit func(llm.Event)) {
	switch ev.Type {
	case "content_block_delta":
		if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
			emit(llm.Event{Kind: llm.EventTextDelta, Text: ev.Delta.Text})
		}
	case "content_block_stop":
		if i := int(ev.Index); i < len(acc.Content) && acc.Content[i].Type == "tool_use" {
			call := toolCall(acc.Content[i])
			emit(llm.Event{Kind: llm.EventToolCall, Call: &call})
		}
	}
}

// response turns the accumulated message into a Response; it is also returned, partial, with
// an error so the caller can keep what already arrived.
func response(m sdk.Message) llm.Response {
	var out llm.Response
	var text strings.Builder
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			out.ToolCalls = append(out.ToolCalls, toolCall(b))
		}
	}
	out.Text = text.String()
	out.StopReason = string(m.StopReason)
	// Cached input counts against the window like any other input.
	in := m.Usage.InputTokens + m.Usage.CacheReadInputTokens + m.Usage.CacheCreationInputTokens
	out.Usage = llm.Usage{InputTokens: in, OutputTokens: m.Usage.OutputTokens}
	return out
}

func toolCall(b sdk.ContentBlockUnion) llm.ToolCall {
	return llm.ToolCall{ID: b.ID, Name: b.Name, Input: llm.Input(b.Input)}
}

// failure maps an SDK error to a typed one. The SDK reports both an HTTP error status and an
// `event: error` inside a 200 stream as *sdk.Error; only the status tells them apart.
func (p *Provider) failure(err error) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		msg := apiErr.Message
		if msg == "" {
			msg = apiErr.RawJSON()
		}
		if llm.IsOverflow(apiErr.StatusCode, string(apiErr.Type()), msg) {
			return llm.OverflowError(Name, msg, p.key)
		}
		if apiErr.StatusCode >= 400 {
			return llm.HTTPError(Name, apiErr.StatusCode, msg, p.key)
		}
		return llm.StreamError(Name, msg, p.key)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return llm.UnreachableError(Name, urlErr, p.key)
	}
	return llm.StreamError(Name, err.Error(), p.key)
}
