package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"agentdesk/backend/decision"
)

// elicitOnTerminal fills in an MCP server's form on the terminal, one field a line; an empty
// answer to a required field declines the form.
// False when the decision ended before the form was filled in.
func (c *Context) elicitOnTerminal(d decision.Decision, p *prompt) (decision.Resolution, bool) {
	var form decision.ElicitationPayload
	json.Unmarshal(d.Payload, &form)
	var schema struct {
		Properties map[string]struct {
			Type  string `json:"type"`
			Title string `json:"title"`
			Enum  []any  `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	json.Unmarshal(form.Schema, &schema)
	fmt.Fprintf(c.Stderr, "\n%s\n%s\n", c.T("cli.run.elicit", "Server", form.Server, "Tool", form.Tool), form.Message)
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	content := map[string]any{}
	for _, name := range names {
		prop := schema.Properties[name]
		label := prop.Title
		if label == "" {
			label = name
		}
		if len(prop.Enum) > 0 {
			label += fmt.Sprintf(" %v", prop.Enum)
		}
		fmt.Fprintf(c.Stderr, "  %s: ", label)
		answer, ok := p.line()
		if !ok {
			return decision.Resolution{}, false
		}
		if answer == "" {
			if containsString(schema.Required, name) {
				return decision.Elicitation(decision.Decline, nil), true
			}
			continue
		}
		content[name] = asSchemaType(prop.Type, answer)
	}
	return decision.Elicitation(decision.Accept, content), true
}

// asSchemaType reads a terminal answer as the schema's type; one that does not read stays text (the
// registry then refuses it with the schema's reason).
func asSchemaType(kind, answer string) any {
	switch kind {
	case "integer":
		if n, err := strconv.ParseInt(answer, 10, 64); err == nil {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(answer, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(answer); err == nil {
			return b
		}
	}
	return answer
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
