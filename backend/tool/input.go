package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// param is one property of a tool's input object. One list per tool drives both the JSON
// Schema (for the model and the fn-form) and the strict decoding of the model's input, so the
// two can never disagree.
type param struct {
	name        string
	typ         string // "string", "integer", "boolean" or "array" (of strings)
	title       string
	description string
	required    bool
	nonEmpty    bool // a string (or each array item) must not be empty
	nonBlank    bool // a string must hold more than white space
	min, max    int  // integer bounds; 0 means none
	def         any  // the default, shown in the schema; nil for none
}

// spec is a tool's input object.
type spec struct {
	tool   mode.Tool
	params []param
}

// schema renders the JSON Schema with properties in declaration order, which a form builder
// keeps (path before offset), instead of encoding/json's alphabetical map order.
func (s spec) schema() json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	required := []string{}
	for i, p := range s.params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustJSON(p.name))
		b.WriteByte(':')
		b.Write(mustJSON(p.schema()))
		if p.required {
			required = append(required, p.name)
		}
	}
	b.WriteString(`},"required":`)
	b.Write(mustJSON(required))
	b.WriteString(`,"additionalProperties":false}`)
	return json.RawMessage(b.Bytes())
}

func (p param) schema() map[string]any {
	m := map[string]any{"type": p.typ, "title": p.title, "description": p.description}
	if p.nonEmpty || p.nonBlank {
		m["minLength"] = 1
	}
	if p.min != 0 {
		m["minimum"] = p.min
	}
	if p.max != 0 {
		m["maximum"] = p.max
	}
	if p.def != nil {
		m["default"] = p.def
	}
	if p.typ == "array" {
		items := map[string]any{"type": "string"}
		if p.nonEmpty {
			items["minLength"] = 1
			delete(m, "minLength")
		}
		m["items"] = items
	}
	return m
}

// mustJSON marshals values built in this file from literals; failure is a programming error.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// decode checks input against the spec, then fills into. Checks come first and field by field
// so the model learns exactly which property is wrong and how.
func (s spec) decode(input json.RawMessage, into any) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(input, &fields); err != nil || fields == nil {
		return s.invalid("the input must be a JSON object")
	}
	if err := s.checkNames(fields); err != nil {
		return err
	}
	for _, p := range s.params {
		raw, ok := fields[p.name]
		if !ok || string(raw) == "null" {
			if p.required {
				return s.invalid(fmt.Sprintf("the required field %q is missing", p.name))
			}
			continue
		}
		if problem := p.check(raw); problem != "" {
			return s.invalid(fmt.Sprintf("field %q %s", p.name, problem))
		}
	}
	if err := json.Unmarshal(input, into); err != nil {
		return s.invalid(err.Error())
	}
	return nil
}

// checkNames rejects unknown fields, in sorted order so the message is deterministic. The
// comparison is exact: encoding/json would accept "Path" for "path", the schema does not.
func (s spec) checkNames(fields map[string]json.RawMessage) error {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !s.has(name) {
			return s.invalid(fmt.Sprintf("unknown field %q (allowed: %s)", name, s.names()))
		}
	}
	return nil
}

func (s spec) has(name string) bool {
	for _, p := range s.params {
		if p.name == name {
			return true
		}
	}
	return false
}

func (s spec) names() string {
	names := make([]string, len(s.params))
	for i, p := range s.params {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

func (s spec) invalid(problem string) error {
	return errs.New(InvalidToolInput, "Tool", string(s.tool), "Problem", problem)
}

// check returns what is wrong with one present value, or "".
func (p param) check(raw json.RawMessage) string {
	switch p.typ {
	case "string":
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return "must be a string"
		}
		return p.checkString(v)
	case "integer":
		var v int64
		if json.Unmarshal(raw, &v) != nil {
			return "must be an integer"
		}
		return p.checkRange(v)
	case "boolean":
		var v bool
		if json.Unmarshal(raw, &v) != nil {
			return "must be true or false"
		}
	case "array":
		var v []string
		if json.Unmarshal(raw, &v) != nil {
			return "must be an array of strings"
		}
		for _, item := range v {
			if p.nonEmpty && item == "" {
				return "must not contain empty strings"
			}
		}
	}
	return ""
}

func (p param) checkString(v string) string {
	switch {
	case p.nonEmpty && v == "":
		return "must not be empty"
	case p.nonBlank && strings.TrimSpace(v) == "":
		return "must not be empty or only white space"
	}
	return ""
}

func (p param) checkRange(v int64) string {
	switch {
	case p.min != 0 && v < int64(p.min):
		return fmt.Sprintf("must be at least %d", p.min)
	case p.max != 0 && v > int64(p.max):
		return fmt.Sprintf("must be at most %d", p.max)
	}
	return ""
}
