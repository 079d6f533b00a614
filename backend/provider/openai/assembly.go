package openai

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"agentdesk/backend/provider/llm"
)

// assembly joins one streamed completion and decides when each tool call is complete.
// Only the first choice counts: the request never asks for more.
type assembly struct {
	acc   sdk.ChatCompletionAccumulator
	emit  func(llm.Event)
	next  int // index of the first tool call not emitted yet; calls are emitted in order
	usage llm.Usage
}

func newAssembly(emit func(llm.Event)) *assembly { return &assembly{emit: emit} }

// add feeds one chunk to the accumulator and emits what it completed. It reports false when
// the accumulator refused the chunk.
func (a *assembly) add(chunk sdk.ChatCompletionChunk) bool {
	if !a.acc.AddChunk(chunk) {
		return false
	}
	// The last report wins: some servers repeat running totals on every chunk.
	if u := chunk.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
		a.usage = llm.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
	}
	for _, c := range chunk.Choices {
		if c.Index != 0 {
			continue
		}
		if c.Delta.Content != "" {
			a.emit(llm.Event{Kind: llm.EventTextDelta, Text: c.Delta.Content})
		}
		for _, tc := range c.Delta.ToolCalls {
			// Arguments can only have become a complete object on a chunk ending in '}'; checking
			// just then keeps the JSON validation off every other chunk of a long argument.
			if strings.HasSuffix(strings.TrimSpace(tc.Function.Arguments), "}") {
				a.emitComplete()
			}
		}
	}
	return true
}

// emitComplete emits, in order, every pending call whose arguments are a complete JSON value.
// A complete JSON object cannot grow into a longer valid one, so the call is final.
func (a *assembly) emitComplete() {
	calls := a.calls()
	for a.next < len(calls) && json.Valid(bytes.TrimSpace([]byte(calls[a.next].Function.Arguments))) {
		a.emitCall(a.next)
	}
}

// flush emits the calls still pending when the stream ended (no-argument calls, say).
func (a *assembly) flush() {
	for a.next < len(a.calls()) {
		a.emitCall(a.next)
	}
}

func (a *assembly) emitCall(i int) {
	call := a.toolCall(i)
	a.next = i + 1
	a.emit(llm.Event{Kind: llm.EventToolCall, Call: &call})
}

func (a *assembly) calls() []sdk.ChatCompletionMessageToolCallUnion {
	if len(a.acc.Choices) == 0 {
		return nil
	}
	return a.acc.Choices[0].Message.ToolCalls
}

// toolCall converts call i; a server that sent no id gets a stable one so the result can still
// be matched to the call in the next request.
func (a *assembly) toolCall(i int) llm.ToolCall {
	c := a.calls()[i]
	id := c.ID
	if id == "" {
		id = "call_" + strconv.Itoa(i)
	}
	return llm.ToolCall{ID: id, Name: c.Function.Name, Input: llm.Input([]byte(c.Function.Arguments))}
}

// response is the assembled completion, complete or (after an error) partial.
func (a *assembly) response() llm.Response {
	out := llm.Response{Usage: a.usage}
	if len(a.acc.Choices) == 0 {
		return out
	}
	choice := a.acc.Choices[0]
	out.Text = choice.Message.Content
	for i := range a.calls() {
		out.ToolCalls = append(out.ToolCalls, a.toolCall(i))
	}
	out.StopReason = stopReason(choice.FinishReason, len(out.ToolCalls) > 0)
	return out
}

// stopReason speaks Anthropic's words (see llm.StopEndTurn). Some local servers finish with
// "stop" even after calling tools, so the calls decide.
func stopReason(finish string, calledTools bool) string {
	switch {
	case calledTools && (finish == "stop" || finish == "tool_calls"):
		return llm.StopToolUse
	case finish == "stop":
		return llm.StopEndTurn
	case finish == "tool_calls":
		return llm.StopToolUse
	case finish == "length":
		return llm.StopMaxTokens
	}
	return finish
}
