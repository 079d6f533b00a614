package anthropic

import (
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

// params translates a Request into the SDK's request. With no tools the Tools field stays nil,
// which the SDK omits from the body entirely (Chat relies on that).
func (p *Provider) params(req llm.Request) (sdk.MessageNewParams, error) {
	out := sdk.MessageNewParams{
		Model:     sdk.Model(p.model),
		MaxTokens: defaultMaxTokens,
		Messages:  messages(req.Messages),
	}
	if req.Model != "" {
		out.Model = sdk.Model(req.Model)
	}
	if req.MaxTokens > 0 {
		out.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		out.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return sdk.MessageNewParams{}, err
		}
		out.Tools = append(out.Tools, tool)
	}
	return out, nil
}

func messages(in []llm.Message) []sdk.MessageParam {
	out := make([]sdk.MessageParam, 0, len(in))
	for _, m := range in {
		if m.Role == llm.RoleAssistant {
			if blocks := assistantBlocks(m); len(blocks) > 0 {
				out = append(out, sdk.NewAssistantMessage(blocks...))
			}
			continue
		}
		// The API refuses a message without content, and an empty one carries nothing.
		if blocks := userBlocks(m); len(blocks) > 0 {
			out = append(out, sdk.NewUserMessage(blocks...))
		}
	}
	return out
}

func assistantBlocks(m llm.Message) []sdk.ContentBlockParamUnion {
	var blocks []sdk.ContentBlockParamUnion
	if m.Text != "" {
		blocks = append(blocks, sdk.NewTextBlock(m.Text))
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, sdk.NewToolUseBlock(c.ID, llm.Input(c.Input), c.Name))
	}
	return blocks
}

// userBlocks puts tool results first: the API requires them to lead the message that answers
// the assistant's tool_use blocks.
func userBlocks(m llm.Message) []sdk.ContentBlockParamUnion {
	var blocks []sdk.ContentBlockParamUnion
	for _, r := range m.ToolResults {
		blocks = append(blocks, toolResult(r))
	}
	if m.Text != "" {
		blocks = append(blocks, sdk.NewTextBlock(m.Text))
	}
	return blocks
}

// toolResult leaves the content out when it is empty, because the API rejects empty text blocks.
func toolResult(r llm.ToolResult) sdk.ContentBlockParamUnion {
	if r.Content != "" {
		return sdk.NewToolResultBlock(r.CallID, r.Content, r.IsError)
	}
	block := sdk.ToolResultBlockParam{ToolUseID: r.CallID, IsError: sdk.Bool(r.IsError)}
	return sdk.ContentBlockParamUnion{OfToolResult: &block}
}

// toolParam maps a JSON Schema object onto the SDK's schema type: properties and required have
// their own fields, every other keyword travels as an extra field.
func toolParam(t llm.ToolDef) (sdk.ToolUnionParam, error) {
	schema := map[string]any{}
	if len(t.InputSchema) > 0 {
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return sdk.ToolUnionParam{}, errs.Wrap(errs.Internal, fmt.Errorf("tool %s: input schema: %w", t.Name, err))
		}
	}
	var in sdk.ToolInputSchemaParam
	in.Properties = schema["properties"]
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	delete(schema, "properties")
	delete(schema, "required")
	delete(schema, "type")
	if len(schema) > 0 {
		in.ExtraFields = schema
	}
	tool := sdk.ToolUnionParamOfTool(in, t.Name)
	if t.Description != "" {
		tool.OfTool.Description = sdk.String(t.Description)
	}
	return tool, nil
}
