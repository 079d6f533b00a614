package tool

import (
	"context"
	"encoding/json"
)

// This file is what tools from outside this package (the MCP servers' tools, backend/mcp) share
// with the built-in ones: the output cap, and the way to the person for a server's form.

// OutputCap is what a tool's result keeps for the model, as bash does: half head, half tail.
const OutputCap = bashOutputCap

// CapOutput keeps the head and the tail of s within limit bytes, with the omitted middle marked,
// never splitting a character; truncated reports a cut.
func CapOutput(s string, limit int) (out string, truncated bool) {
	c := newCapture(limit, 0, nil)
	_, _ = c.Write([]byte(s))
	return c.String(), c.omitted() > 0
}

// Elicitation is a form an MCP server asks the person to fill in while one of its tools runs.
type Elicitation struct {
	Server  string
	Tool    string
	Message string
	// Schema is the requested schema: a flat object of string, number, integer, boolean and
	// enum properties.
	Schema json.RawMessage
}

// ElicitAnswer is the person's reply: "accept" with the form's Content, "decline" or "cancel".
type ElicitAnswer struct {
	Action  string
	Content map[string]any
}

// Elicitor puts an Elicitation to the person (Env.Elicit).
type Elicitor func(ctx context.Context, e Elicitation) (ElicitAnswer, error)

// SamplingRequest is an MCP server asking to use the person's model while one of its tools
// runs (MCP sampling), its prompt as text.
type SamplingRequest struct {
	Server       string
	Tool         string
	SystemPrompt string
	Messages     []SamplingMessage
	MaxTokens    int
}

// SamplingMessage is one message of a sampling prompt; Role is "user" or "assistant".
type SamplingMessage struct {
	Role string
	Text string
}

// SamplingResult is the model's answer, and which model gave it.
type SamplingResult struct {
	Text       string
	Model      string
	StopReason string
}

// Sampler answers a SamplingRequest (Env.Sample). Its error's text is what the server reads.
type Sampler func(ctx context.Context, r SamplingRequest) (SamplingResult, error)

// Progress is how far a long call has come, as its server reports it: Total is 0 when unknown.
type Progress struct {
	Progress float64
	Total    float64
	Message  string
}

// Served is a tool an MCP server serves (backend/mcp): it runs like a built-in tool, and says
// whose it is and what its annotations claim, for the transcript and the mode's profile.
type Served interface {
	Tool
	// Server is the name of the server.
	Server() string
	// ReadOnlyHint is the tool's read-only annotation, as the person approved it: a hint that
	// decides only whether a read-only mode may offer and call it.
	ReadOnlyHint() bool
}

// ChangedServed is a served tool whose definition may have changed since the person approved
// it. A call of a changed tool asks the person, showing the change, before it may run.
type ChangedServed interface {
	Served
	// Change is the approved definition against the one listed now, one line each prefixed
	// "-" (only in the approved one), "+" (only in the new one) or " "; "" when unchanged.
	Change() string
	// ApproveChange pins the listed definition as the person's approval: the call then runs,
	// and the tool is offered again.
	ApproveChange() error
	// ChangeRefusal is the error of a call the person did not approve the change for.
	ChangeRefusal() error
}

// ServedTools are the MCP servers' tools of a session (backend/mcp.Host).
type ServedTools interface {
	// Offered lists the tools a session in workspace may be offered: enabled and approved.
	Offered(ctx context.Context, sessionID, workspace string) []Served
	// Lookup finds a tool by the name the model called, in any state: one that may not run
	// fails its call with the reason. A tool of a server that cannot be reached is that
	// server's error; a name no server has is (nil, nil).
	Lookup(ctx context.Context, sessionID, workspace, name string) (Served, error)
}
