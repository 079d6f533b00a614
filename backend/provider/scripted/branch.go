package scripted

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"agentdesk/backend/provider/llm"
)

// A response may branch on what became of its tool calls. Its "next" rules are read when the
// following request arrives, in order; the first that fits says which response (by "id") comes
// next and may set variables, which "{{name}}" in later texts and tool inputs is replaced by:
//
//	{"id":"ask","tool_calls":[{"name":"ask_user","input":{…}}],
//	 "next":[{"match":"^The person answered:\n(?P<greeting>.+)$","goto":"plan"},
//	         {"error":true,"goto":"declined","set":{"greeting":"Hello"}}]}
//
// A rule fits when every condition it has holds: "error" (the call's result is or is not an
// error), "match" (a regular expression on the result, whose named groups become variables) and
// "message" (the request ends with the person's own message rather than tool results: a new
// turn). Without a fitting rule the script goes on in file order.
type rule struct {
	Error   *bool             `json:"error"`
	Match   string            `json:"match"`
	Message bool              `json:"message"`
	Set     map[string]string `json:"set"`
	Goto    string            `json:"goto"`

	re *regexp.Regexp
}

// link compiles every rule and checks that each goto names a response.
func link(responses []response) error {
	ids := map[string]int{}
	for i, r := range responses {
		if r.ID == "" {
			continue
		}
		if _, dup := ids[r.ID]; dup {
			return fmt.Errorf("responses[%d]: the id %q is used twice", i, r.ID)
		}
		ids[r.ID] = i
	}
	for i := range responses {
		for j := range responses[i].Next {
			n := &responses[i].Next[j]
			at, ok := ids[n.Goto]
			if !ok {
				return fmt.Errorf("responses[%d].next[%d]: goto %q names no response", i, j, n.Goto)
			}
			if n.Match != "" {
				re, err := regexp.Compile(n.Match)
				if err != nil {
					return fmt.Errorf("responses[%d].next[%d].match: %v", i, j, err)
				}
				n.re = re
			}
			responses[i].targets = append(responses[i].targets, at)
		}
	}
	return nil
}

// follow picks the response after r from the request, setting the variables its rule gives;
// ok is false when no rule fits.
func follow(r response, calls []string, req llm.Request, vars map[string]string) (int, bool) {
	got, ok := outcome(calls, req)
	if !ok {
		return 0, false
	}
	for i, n := range r.Next {
		if n.Message != got.message || (n.Error != nil && (got.message || got.isError != *n.Error)) {
			continue
		}
		captured := map[string]string{}
		if n.re != nil {
			m := n.re.FindStringSubmatch(got.text)
			if m == nil {
				continue
			}
			for k, name := range n.re.SubexpNames() {
				if name != "" {
					captured[name] = m[k]
				}
			}
		}
		for k, v := range n.Set {
			vars[k] = v
		}
		for k, v := range captured {
			vars[k] = v
		}
		return r.targets[i], true
	}
	return 0, false
}

// answer is what a request says about the response before it: the result of its last tool
// call, or the person's new message.
type answer struct {
	text    string
	isError bool
	message bool
}

// outcome reads the request's last message: the result of the last call the previous response
// made, or the person's text; ok is false when it is neither.
func outcome(calls []string, req llm.Request) (answer, bool) {
	if len(req.Messages) == 0 {
		return answer{}, false
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != llm.RoleUser {
		return answer{}, false
	}
	if len(last.ToolResults) == 0 {
		return answer{text: last.Text, message: true}, strings.TrimSpace(last.Text) != ""
	}
	if len(calls) == 0 {
		return answer{}, false
	}
	want := calls[len(calls)-1]
	for _, res := range last.ToolResults {
		if res.CallID == want {
			return answer{text: res.Content, isError: res.IsError}, true
		}
	}
	return answer{}, false
}

var variable = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// expand replaces {{name}} with the variable's value; an unknown name stays as written.
func expand(s string, vars map[string]string) string {
	if len(vars) == 0 || !strings.Contains(s, "{{") {
		return s
	}
	return variable.ReplaceAllStringFunc(s, func(whole string) string {
		if v, ok := vars[variable.FindStringSubmatch(whole)[1]]; ok {
			return v
		}
		return whole
	})
}

// expandInput replaces variables inside the string values of a tool input, so a value with
// quotes or newlines stays valid JSON.
func expandInput(input json.RawMessage, vars map[string]string) json.RawMessage {
	if len(vars) == 0 || !strings.Contains(string(input), "{{") {
		return input
	}
	var v any
	if json.Unmarshal(input, &v) != nil {
		return input
	}
	out, err := json.Marshal(expandValue(v, vars))
	if err != nil {
		return input
	}
	return out
}

func expandValue(v any, vars map[string]string) any {
	switch x := v.(type) {
	case string:
		return expand(x, vars)
	case []any:
		for i := range x {
			x[i] = expandValue(x[i], vars)
		}
	case map[string]any:
		for k := range x {
			x[k] = expandValue(x[k], vars)
		}
	}
	return v
}
