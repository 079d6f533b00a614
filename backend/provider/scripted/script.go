package scripted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

// file is the JSON shape of a script:
//
//	{"responses":[{"text":"...","tool_calls":[{"name":"bash","input":{"command":"echo hi"}}],
//	               "delay_ms":0,"bytes_per_s":0,"error":""}, ...]}
//
// Unknown fields are refused so a typo ("tool_call") fails loudly instead of silently dropping
// the calls a test depends on.
type file struct {
	Responses *[]response `json:"responses"`
	// Vars are the starting values of the variables a script's texts and inputs may use.
	Vars map[string]string `json:"vars"`
	// ContextWindow is the window the script pretends its model has, in tokens; 0 means none
	// that a conversation could outgrow (a replay has no model to overflow).
	ContextWindow int `json:"context_window"`
}

// response is one scripted answer; ID and Next let a script branch (see branch.go).
type response struct {
	ID        string     `json:"id"`
	Text      string     `json:"text"`
	ToolCalls []toolCall `json:"tool_calls"`
	DelayMS   int        `json:"delay_ms"`
	// BytesPerS paces the text as a model streams it: no faster than this many bytes a second
	// (0: as fast as it can be sent).
	BytesPerS int    `json:"bytes_per_s"`
	Error     string `json:"error"`
	Next      []rule `json:"next"`

	targets []int // Next's goto, as indexes
}

type toolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// parse decodes and checks a script, giving every tool call without an id a stable one
// ("call_<n>", numbered through the whole file) so runs and records are reproducible.
func parse(name string, data []byte) ([]response, map[string]string, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, nil, 0, invalid(name, err.Error())
	}
	if dec.More() {
		return nil, nil, 0, invalid(name, "unexpected data after the script object")
	}
	if f.Responses == nil {
		return nil, nil, 0, invalid(name, `missing "responses"`)
	}
	if f.ContextWindow < 0 {
		return nil, nil, 0, invalid(name, "context_window must not be negative")
	}
	n := 0
	for i := range *f.Responses {
		if err := check(&(*f.Responses)[i], i, &n); err != nil {
			return nil, nil, 0, invalid(name, err.Error())
		}
	}
	if err := link(*f.Responses); err != nil {
		return nil, nil, 0, invalid(name, err.Error())
	}
	return *f.Responses, f.Vars, f.ContextWindow, nil
}

// check validates one response and fills in defaults; n counts tool calls so far.
func check(r *response, i int, n *int) error {
	if r.DelayMS < 0 {
		return fmt.Errorf("responses[%d].delay_ms must not be negative", i)
	}
	if r.BytesPerS < 0 {
		return fmt.Errorf("responses[%d].bytes_per_s must not be negative", i)
	}
	for j := range r.ToolCalls {
		c := &r.ToolCalls[j]
		*n++
		if c.Name == "" {
			return fmt.Errorf("responses[%d].tool_calls[%d] has no name", i, j)
		}
		if len(bytes.TrimSpace(c.Input)) == 0 || string(bytes.TrimSpace(c.Input)) == "null" {
			c.Input = json.RawMessage(`{}`)
		}
		if bytes.TrimSpace(c.Input)[0] != '{' {
			return fmt.Errorf("responses[%d].tool_calls[%d].input must be a JSON object", i, j)
		}
		if c.ID == "" {
			c.ID = "call_" + strconv.Itoa(*n)
		}
	}
	return nil
}

func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, invalid(path, err.Error())
	}
	return data, nil
}

func invalid(name, detail string) *errs.Error {
	return errs.New(llm.ScriptInvalid, "File", name, "Detail", detail)
}
