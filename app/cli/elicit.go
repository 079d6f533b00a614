package cli

import (
	"fmt"
	"strconv"

	"agentdesk/backend/decision"
)

// elicitOnTerminal fills in an MCP server's form on the terminal, one field a line; an empty
// answer to a required field declines the form.
// False when the decision ended before the form was filled in.
func (c *Context) elicitOnTerminal(form decision.ElicitationPayload, p *prompt) (decision.Resolution, bool) {
	fields, err := form.Fields()
	if err != nil {
		return c.declineUnreadable(err), true
	}
	fmt.Fprintf(c.Stderr, "\n%s\n%s\n", c.T("cli.run.elicit", "Server", form.Server, "Tool", form.Tool), form.Message)
	content := map[string]any{}
	for _, f := range fields {
		label := f.Title
		if label == "" {
			label = f.Name
		}
		if len(f.Enum) > 0 {
			label += fmt.Sprintf(" %v", f.Enum)
		}
		fmt.Fprintf(c.Stderr, "  %s: ", label)
		answer, ok := p.line()
		if !ok {
			return decision.Resolution{}, false
		}
		if answer == "" {
			if f.Required {
				return decision.Elicitation(decision.Decline, nil), true
			}
			continue
		}
		content[f.Name] = asSchemaType(f.Type, answer)
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
