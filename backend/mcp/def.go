package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Def is what AgentDesk pins of a tool when the person approves it: everything the model reads
// (title, description, input schema) and everything the gate reads (the annotations, whose
// read-only hint decides whether a read-only mode may call it). The name is the key it is
// pinned under. Any difference, however small, disables the tool until the person approves it.
type Def struct {
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations *Annotations    `json:"annotations,omitempty"`
}

// Annotations are the tool's hints, as the server gave them.
type Annotations struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    bool   `json:"readOnlyHint,omitempty"`
	Destructive *bool  `json:"destructiveHint,omitempty"`
	Idempotent  bool   `json:"idempotentHint,omitempty"`
	OpenWorld   *bool  `json:"openWorldHint,omitempty"`
}

// ReadOnlyHint is the tool's read-only annotation; a tool without annotations is not read-only.
func (d Def) ReadOnlyHint() bool { return d.Annotations != nil && d.Annotations.ReadOnly }

// defOf reads a listed tool into its pinned form. The schema goes through a generic value, so
// the same schema always gives the same bytes whatever order the server wrote its keys in.
func defOf(t *mcp.Tool) (Def, error) {
	schema, err := canonicalJSON(t.InputSchema)
	if err != nil {
		return Def{}, err
	}
	d := Def{Title: t.Title, Description: t.Description, InputSchema: schema}
	if a := t.Annotations; a != nil {
		d.Annotations = &Annotations{Title: a.Title, ReadOnly: a.ReadOnlyHint, Destructive: a.DestructiveHint,
			Idempotent: a.IdempotentHint, OpenWorld: a.OpenWorldHint}
	}
	return d, nil
}

// canonical is the stored form of a definition.
func (d Def) canonical() string {
	b, err := json.Marshal(d)
	if err != nil {
		return ""
	}
	return string(b)
}

// parseDef reads a stored definition; ok is false for one that does not read (it then matches
// nothing, so the tool stays off).
func parseDef(s string) (Def, bool) {
	var d Def
	if s == "" || json.Unmarshal([]byte(s), &d) != nil {
		return Def{}, false
	}
	return d, true
}

// pretty is the definition laid out one field a line, for the diff the person reviews.
func (d Def) pretty() string {
	var v any
	_ = json.Unmarshal([]byte(d.canonical()), &v)
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func canonicalJSON(v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	if generic == nil {
		generic = map[string]any{"type": "object"}
	}
	return json.Marshal(generic)
}
