package llm

import (
	"bytes"
	"encoding/json"
)

// Input turns a tool call's raw argument text into the JSON the rest of the app can rely on:
// empty means no arguments ({}), valid JSON passes through, and anything else (a local model's
// broken JSON) becomes a JSON string holding the text, so the tool rejects it with a readable
// error the model can act on instead of the whole turn failing.
func Input(raw []byte) json.RawMessage {
	trimmed := bytes.TrimSpace(raw)
	switch {
	case len(trimmed) == 0:
		return json.RawMessage(`{}`)
	case json.Valid(trimmed):
		return json.RawMessage(bytes.Clone(trimmed))
	default:
		quoted, _ := json.Marshal(string(raw))
		return quoted
	}
}

// Emitter returns emit, or a no-op when the caller passed nil.
func Emitter(emit func(Event)) func(Event) {
	if emit == nil {
		return func(Event) {}
	}
	return emit
}
