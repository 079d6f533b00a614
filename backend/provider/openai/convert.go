package openai

import (
	"encoding/json"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

// params translates a Request into the SDK's request. With no tools the Tools field stays nil,
// which the SDK omits from the body entirely (Chat relies on that).
func (p *Provider) params(req llm.Request) (sdk.ChatCompletionNewParams, error) {
	out := sdk.ChatCompletionNewParams{
		Model:    shared.ChatModel(p.model),
		Messages: messages(req.System, req.Messages),
		// Usage arrives in one last chunk only when asked for.
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
	}
	if req.Model != "" {
		out.Model = shared.ChatModel(req.Model)
	}
	p.setMaxTokens(&out, req.MaxTokens)
	for _, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return sdk.ChatCompletionNewParams{}, err
		}
		out.Tools = append(out.Tools, tool)
	}
	return out, nil
}

// setMaxTokens uses max_completion_tokens on OpenAI itself, where max_tokens is deprecated and
// refused by reasoning models, and max_tokens elsewhere, the field every compatible local
// server understands.
func (p *Provider) setMaxTokens(out *sdk.ChatCompletionNewParams, n int) {
	if n <= 0 {
		return
	}
	if p.official {
		out.MaxCompletionTokens = sdk.Int(int64(n))
	} else {
		out.MaxTokens = sdk.Int(int64(n))
	}
}

func messages(system string, in []llm.Message) []sdk.ChatCompletionMessageParamUnion {
	var out []sdk.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, sdk.SystemMessage(system))
	}
	for _, m := range in {
		if m.Role == llm.RoleAssistant {
			out = append(out, assistant(m))
			continue
		}
		// Each result is its own "tool" message; any text follows as a user message.
		for _, r := range m.ToolResults {
			out = append(out, sdk.ToolMessage(resultText(r), r.CallID))
		}
		if m.Text != "" || len(m.ToolResults) == 0 {
			out = append(out, sdk.UserMessage(m.Text))
		}
	}
	return out
}

// resultText marks failures in the text, since Chat Completions has no is_error flag.
func resultText(r llm.ToolResult) string {
	if r.IsError {
		return "Error: " + r.Content
	}
	return r.Content
}

func assistant(m llm.Message) sdk.ChatCompletionMessageParamUnion {
	var msg sdk.ChatCompletionAssistantMessageParam
	if m.Text != "" || len(m.ToolCalls) == 0 {
		msg.Content.OfString = sdk.String(m.Text)
	}
	for _, c := range m.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
				ID: c.ID,
				Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      c.Name,
					Arguments: string(llm.Input(c.Input)),
				},
			},
		})
	}
	return sdk.ChatCompletionMessageParamUnion{OfAssistant: &msg}
}

func toolParam(t llm.ToolDef) (sdk.ChatCompletionToolUnionParam, error) {
	schema := shared.FunctionParameters{"type": "object"}
	if len(t.InputSchema) > 0 {
		schema = shared.FunctionParameters{}
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return sdk.ChatCompletionToolUnionParam{}, errs.Wrap(errs.Internal, fmt.Errorf("tool %s: input schema: %w", t.Name, err))
		}
	}
	fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema}
	if t.Description != "" {
		fn.Description = sdk.String(t.Description)
	}
	return sdk.ChatCompletionFunctionTool(fn), nil
}
