package tool

import (
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

func TestInvalidInputIsRejectedWithTheProblem(t *testing.T) {
	cases := []struct {
		tool    mode.Tool
		input   string
		problem string
	}{
		{mode.ToolRead, `{"path":"a","mode":"fast"}`, `unknown field "mode"`},
		{mode.ToolRead, `{"Path":"a"}`, `unknown field "Path"`},
		{mode.ToolRead, `{"path":7}`, `"path" must be a string`},
		{mode.ToolRead, `{"path":"a","offset":"3"}`, `"offset" must be an integer`},
		{mode.ToolRead, `{"path":"a","offset":1.5}`, `"offset" must be an integer`},
		{mode.ToolRead, `{"path":"a","limit":0}`, `"limit" must be at least 1`},
		{mode.ToolRead, `{}`, `required field "path" is missing`},
		{mode.ToolRead, `{"path":null}`, `required field "path" is missing`},
		{mode.ToolRead, `{"path":""}`, `"path" must not be empty`},
		{mode.ToolRead, `[]`, `must be a JSON object`},
		{mode.ToolRead, `null`, `must be a JSON object`},
		{mode.ToolRead, ``, `must be a JSON object`},
		{mode.ToolGlob, `{"pattern":["*"]}`, `"pattern" must be a string`},
		{mode.ToolBash, `{"command":"ls","timeout_s":601}`, `"timeout_s" must be at most 600`},
		{mode.ToolBash, `{"command":"  "}`, `"command" must not be empty`},
		{mode.ToolEdit, `{"path":"a","old_string":"x"}`, `required field "new_string" is missing`},
		{mode.ToolWrite, `{"path":"a","content":3}`, `"content" must be a string`},
		{mode.ToolAskUser, `{"question":"q","options":"a,b"}`, `"options" must be an array of strings`},
		{mode.ToolAskUser, `{"question":"q","options":["a",""]}`, `must not contain empty strings`},
		{mode.ToolAskUser, `{"question":"q","multiple":"yes"}`, `"multiple" must be true or false`},
		{mode.ToolAskUser, `{"question":"q","multiple":true}`, `"multiple" needs "options"`},
		{mode.ToolAskUser, `{"question":"q","options":["a","a"]}`, `appears twice`},
		{mode.ToolExitPlanMode, `{"plan":"\n  "}`, `"plan" must not be empty`},
		{mode.ToolExitPlanMode, `{"plan":"# P","approved":true}`, `unknown field "approved"`},
	}
	for _, c := range cases {
		_, err := get(t, c.tool).Describe(json.RawMessage(c.input))
		e := wantKind(t, err, InvalidToolInput)
		if e.Args["Tool"] != string(c.tool) {
			t.Errorf("%s %s: Tool arg %v", c.tool, c.input, e.Args["Tool"])
		}
		if p, _ := e.Args["Problem"].(string); !strings.Contains(p, c.problem) {
			t.Errorf("%s %s: problem %q, want it to say %q", c.tool, c.input, p, c.problem)
		}
		// Run validates too: it must never act on input Describe would refuse.
		if _, err := get(t, c.tool).Run(t.Context(), Env{Workspace: t.TempDir()}, json.RawMessage(c.input)); err == nil {
			t.Errorf("%s %s: Run accepted it", c.tool, c.input)
		}
	}
}

func TestOptionalFieldsMayBeNull(t *testing.T) {
	if _, err := get(t, mode.ToolRead).Describe(json.RawMessage(`{"path":"a","offset":null,"limit":null}`)); err != nil {
		t.Fatal(err)
	}
}
