// Package openai streams the OpenAI Chat Completions API, or any compatible server (Ollama,
// LM Studio, vLLM, llama.cpp), through the official Go SDK.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"agentdesk/backend/provider/llm"
)

const (
	// Name is the provider's name.
	Name = "openai"
	// DefaultModel is used when neither the config nor the request names one.
	DefaultModel = "gpt-4.1"
	// DefaultBaseURL is OpenAI's own endpoint.
	DefaultBaseURL = "https://api.openai.com/v1/"
)

// Options configure a Provider.
type Options = llm.Options

// Provider talks to a Chat Completions endpoint.
type Provider struct {
	client   sdk.Client
	model    string
	key      string // kept only to redact it from any message that echoes it
	official bool   // the endpoint is OpenAI's own, not a compatible server
	window   int
}

// New builds a provider. The base URL is always passed explicitly so the SDK's own
// OPENAI_BASE_URL lookup can never point a request somewhere the caller did not choose.
func New(o Options) *Provider {
	base := o.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	o = o.Resolved(DefaultModel)
	client := sdk.NewClient(option.WithAPIKey(o.Key), option.WithBaseURL(base))
	return &Provider{client: client, model: o.Model, key: o.Key, official: isOfficial(base), window: o.ContextWindow}
}

// ContextWindow implements llm.Windowed: the window of the configured model.
func (p *Provider) ContextWindow() int { return p.window }

func isOfficial(base string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Hostname() == "api.openai.com"
}

// Name implements provider.Provider.
func (p *Provider) Name() string { return Name }

// Model is the model used when a request names none.
func (p *Provider) Model() string { return p.model }

// Stream implements provider.Provider: the SDK decodes the `data:` chunks and its
// ChatCompletionAccumulator joins them (tool-call arguments arrive by index, split across
// chunks). Text deltas are emitted at once, each tool call as soon as its arguments form a
// complete JSON value, and any left at the end of the stream.
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.Event)) (llm.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return llm.Response{}, err
	}
	stream := p.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	a := newAssembly(llm.Emitter(emit))
	for stream.Next() {
		if ctx.Err() != nil {
			break
		}
		if !a.add(stream.Current()) {
			return a.response(), llm.StreamError(Name, "a chunk did not fit the response streamed so far", p.key)
		}
	}
	if err := ctx.Err(); err != nil {
		return a.response(), err
	}
	if err := stream.Err(); err != nil {
		return a.response(), p.failure(err)
	}
	a.flush()
	return a.response(), nil
}

// failure maps an SDK error to a typed one: an error status, an error object inside the stream,
// no answer at all, or a stream that broke.
func (p *Provider) failure(err error) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		msg := apiErr.Message
		if msg == "" {
			msg = http.StatusText(apiErr.StatusCode)
		}
		if llm.IsOverflow(apiErr.StatusCode, apiErr.Code, msg) {
			return llm.OverflowError(Name, msg, p.key)
		}
		return llm.HTTPError(Name, apiErr.StatusCode, msg, p.key)
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		return llm.StreamError(Name, eventMessage(streamErr), p.key)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return llm.UnreachableError(Name, urlErr, p.key)
	}
	return llm.StreamError(Name, err.Error(), p.key)
}

// eventMessage digs the message out of an in-stream error, which servers send either as
// {"error":{"message":"..."}} or as {"error":"..."}.
func eventMessage(e *ssestream.StreamError) string {
	var obj struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(e.Event.Data, &obj) == nil && obj.Error.Message != "" {
		return obj.Error.Message
	}
	var str struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(e.Event.Data, &str) == nil && str.Error != "" {
		return str.Error
	}
	return e.Message
}
