// Package llm is the vocabulary shared by package provider and its vendors (anthropic, openai,
// scripted). It exists so the vendors can implement provider.Provider while provider.New builds
// them without an import cycle. Everyone else imports agentdesk/backend/provider, which
// re-exports every name here.
package llm

import (
	"context"
	"encoding/json"
)

// Role is who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// ToolCall is one call the model asked for. Input is the complete JSON object of arguments.
type ToolCall struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// ToolResult answers one ToolCall; it travels back in a user message.
type ToolResult struct {
	CallID  string
	Name    string
	Content string
	IsError bool
}

// Message is one conversation entry: user text, assistant text plus tool calls, or (Role user)
// tool results.
type Message struct {
	Role        Role
	Text        string
	ToolCalls   []ToolCall
	ToolResults []ToolResult
}

// ToolDef describes a tool to the model. InputSchema is a JSON Schema object.
type ToolDef struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// Request is one model request. Zero Tools means no tool definitions are sent at all.
// An empty Model means the provider's configured model.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []ToolDef
	MaxTokens int
}

// EventKind tells a streamed Event's shape.
type EventKind string

const (
	// EventTextDelta carries the next piece of the assistant's text in Event.Text.
	EventTextDelta EventKind = "text_delta"
	// EventToolCall carries one complete tool call, its input fully assembled, in Event.Call.
	EventToolCall EventKind = "tool_call"
)

// Event is what Stream emits while a response arrives.
type Event struct {
	Kind EventKind
	Text string
	Call *ToolCall
}

// Stop reasons, in Anthropic's words; the OpenAI provider maps its own onto them and passes
// any other value through unchanged.
const (
	StopEndTurn   = "end_turn"
	StopToolUse   = "tool_use"
	StopMaxTokens = "max_tokens"
)

// Response is the assembled result of one Stream call.
type Response struct {
	Text       string
	ToolCalls  []ToolCall
	StopReason string
	Usage      Usage
}

// Usage counts tokens as the vendor reported them (zero when it did not).
type Usage struct {
	InputTokens  int64
	OutputTokens int64
}

// Provider sends requests to a model.
type Provider interface {
	Name() string
	// Stream sends one request, calls emit for every text delta and every completed tool call as
	// they arrive, and returns the assembled response. It stops promptly when ctx is cancelled
	// (returning ctx's error). On any error the Response still holds what arrived before it.
	Stream(ctx context.Context, req Request, emit func(Event)) (Response, error)
}
