package decision

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"agentdesk/backend/errs"
)

// An elicitation is a form an MCP server asks for while one of its tools runs: the composer
// builds it from the requested schema. The person submits it (accept), declines, or lets it
// end (timed out, cancelled), which the server reads as cancel.

// ElicitationAction is the person's answer to an elicitation.
type ElicitationAction string

const (
	Accept  ElicitationAction = "accept"
	Decline ElicitationAction = "decline"
)

var elicitationActions = []ElicitationAction{Accept, Decline}

// ElicitationAnswer is the Answer of an elicitation: the action, and the form's values when it
// is accept.
type ElicitationAnswer struct {
	Action  ElicitationAction `json:"action"`
	Content map[string]any    `json:"content,omitempty"`
}

// ElicitationPayload is what the elicitation composer shows: whose form it is, the server's
// message and the schema to build the form from.
type ElicitationPayload struct {
	Server  string          `json:"server"`
	Tool    string          `json:"tool"`
	Message string          `json:"message"`
	Schema  json.RawMessage `json:"schema"`
}

// Elicitation builds the resolution of an elicitation.
func Elicitation(action ElicitationAction, content map[string]any) Resolution {
	a := ElicitationAnswer{Action: action}
	if action == Accept {
		a.Content = content
		if a.Content == nil {
			a.Content = map[string]any{}
		}
	}
	return Resolution{Outcome: Answered, Answer: mustJSON(a)}
}

// ParseElicitation reads an elicitation's answer; an unknown action is INVALID_VALUE.
func ParseElicitation(raw json.RawMessage) (ElicitationAnswer, error) {
	var a ElicitationAnswer
	if err := decodeStrict(raw, &a, "action", "content"); err != nil {
		return a, err
	}
	if !slices.Contains(elicitationActions, a.Action) {
		return a, errs.Invalid("action", string(a.Action), names(elicitationActions))
	}
	return a, nil
}

// checkElicitationContent holds an accepted form to the schema the server asked for, so an
// answer that does not fit leaves the decision pending (INVALID_VALUE naming the problem)
// instead of reaching the server. A schema this library cannot read or resolve is left to the
// server: every reader has already shown the form as unreadable, and the person's answer (a
// decline, as a rule) must still end the decision.
func checkElicitationContent(d Decision, answer json.RawMessage) error {
	a, err := ParseElicitation(answer)
	if err != nil || a.Action != Accept {
		return err
	}
	if a.Content == nil {
		a.Content = map[string]any{}
	}
	p, err := DecodeElicitation(d)
	if err != nil {
		return nil
	}
	schema, _ := p.schema()
	if schema == nil {
		return nil
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil
	}
	if err := resolved.Validate(a.Content); err != nil {
		return errs.Wrap(errs.InvalidValue, err, "Field", "content", "Value", err.Error(), "Allowed", string(p.Schema))
	}
	return nil
}

// FormField is one field of an elicitation's form.
type FormField struct {
	Name     string
	Title    string
	Type     string // the JSON Schema type: "string", "integer", "number", "boolean"
	Enum     []any
	Required bool
}

// Fields lists the form's fields by name; a form without a schema has none. A schema that does
// not read is PayloadUnreadable.
func (p ElicitationPayload) Fields() ([]FormField, error) {
	fields, err := p.fields()
	if err != nil {
		return nil, unreadable(KindElicitation, err)
	}
	return fields, nil
}

func (p ElicitationPayload) fields() ([]FormField, error) {
	schema, err := p.schema()
	if err != nil || schema == nil {
		return nil, err
	}
	names := slices.Sorted(maps.Keys(schema.Properties))
	out := make([]FormField, len(names))
	for i, name := range names {
		prop := schema.Properties[name]
		if prop == nil {
			return nil, fmt.Errorf("the schema's property %q is empty", name)
		}
		out[i] = FormField{Name: name, Title: prop.Title, Type: typeOf(prop), Enum: prop.Enum,
			Required: slices.Contains(schema.Required, name)}
	}
	return out, nil
}

func (p ElicitationPayload) schema() (*jsonschema.Schema, error) {
	if len(p.Schema) == 0 {
		return nil, nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(p.Schema, &s); err != nil {
		return nil, fmt.Errorf("the form's schema: %w", err)
	}
	return &s, nil
}

// typeOf is a property's one type other than null.
func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		return s.Type
	}
	for _, t := range s.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}
