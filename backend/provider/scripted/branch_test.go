package scripted

import (
	"context"
	"encoding/json"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

const branching = `{"vars":{"greeting":"Hello, world"},"responses":[
  {"id":"ask","tool_calls":[{"name":"ask_user","input":{"question":"Which?"}}],
   "next":[{"match":"^The person answered:\\n(?P<greeting>[\\s\\S]+)$","goto":"plan"},{"goto":"plan"}]},
  {"id":"plan","text":"Plan for {{greeting}}","tool_calls":[{"name":"exit_plan_mode","input":{"plan":"# Print {{greeting}}"}}],
   "next":[{"error":true,"match":"^(?P<feedback>[\\s\\S]*)$","goto":"plan"},{"goto":"write"}]},
  {"id":"write","tool_calls":[{"name":"write","input":{"path":"hello.sh","content":"echo '{{greeting}}'\n"}}],
   "next":[{"error":true,"goto":"declined"},{"goto":"done"}]},
  {"id":"done","text":"Done: {{greeting}}","next":[{"message":true,"goto":"more"}]},
  {"id":"declined","text":"Nothing written.","next":[{"message":true,"goto":"more"}]},
  {"id":"more","text":"Scripted: {{feedback}}","next":[{"message":true,"goto":"more"}]}
]}`

// conversation builds requests the way the agent does: the history, ending in the result of
// the last call or in the person's new message.
type conversation struct {
	t    *testing.T
	p    *Provider
	msgs []llm.Message
}

func (c *conversation) say(text string) llm.Response {
	c.msgs = append(c.msgs, llm.Message{Role: llm.RoleUser, Text: text})
	return c.next()
}

func (c *conversation) answer(content string, isError bool) llm.Response {
	last := c.msgs[len(c.msgs)-1]
	c.msgs = append(c.msgs, llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{
		{CallID: last.ToolCalls[len(last.ToolCalls)-1].ID, Content: content, IsError: isError}}})
	return c.next()
}

func (c *conversation) next() llm.Response {
	c.t.Helper()
	resp, err := c.p.Stream(context.Background(), llm.Request{Messages: c.msgs}, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	c.msgs = append(c.msgs, llm.Message{Role: llm.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls})
	return resp
}

func input(t *testing.T, resp llm.Response) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal(resp.ToolCalls[0].Input, &m); err != nil {
		t.Fatalf("input %s: %v", resp.ToolCalls[0].Input, err)
	}
	return m
}

// Issue 12: the demo branches on the person's answers. The chosen greeting is the one written
// (quotes and all, still valid JSON); keeping planning revises the plan with the feedback, under
// new call ids; a new message after the end gets an answer rather than an exhausted script.
func TestAScriptBranchesOnThePersonsAnswers(t *testing.T) {
	p, err := FromBytes("branching", []byte(branching))
	if err != nil {
		t.Fatal(err)
	}
	c := &conversation{t: t, p: p}
	c.say("go")
	plan := c.answer("The person answered:\nHi \"there\"", false)
	if plan.Text != `Plan for Hi "there"` || input(t, plan)["plan"] != `# Print Hi "there"` {
		t.Fatalf("plan: %+v", plan)
	}
	revised := c.answer("smaller steps", true)
	if revised.ToolCalls[0].ID == plan.ToolCalls[0].ID || revised.ToolCalls[0].Name != "exit_plan_mode" {
		t.Fatalf("a revised plan is a new call: %s after %s", revised.ToolCalls[0].ID, plan.ToolCalls[0].ID)
	}
	write := c.answer("The person approved the plan.", false)
	if input(t, write)["content"] != "echo 'Hi \"there\"'\n" {
		t.Fatalf("write: %s", write.ToolCalls[0].Input)
	}
	if done := c.answer("Created hello.sh", false); done.Text != `Done: Hi "there"` {
		t.Fatalf("done: %+v", done)
	}
	for range 3 {
		if more := c.say("and now?"); more.Text != "Scripted: smaller steps" {
			t.Fatalf("more: %+v", more)
		}
	}
}

func TestWithoutAFittingRuleAScriptGoesOnInOrder(t *testing.T) {
	p, _ := FromBytes("branching", []byte(branching))
	c := &conversation{t: t, p: p}
	c.say("go")
	// A declined question matches no capture: the default greeting stays.
	plan := c.answer("The question was not answered.\nReason: timed out", true)
	if plan.Text != "Plan for Hello, world" {
		t.Fatalf("plan: %+v", plan)
	}
	c.answer("approved", false)
	if declined := c.answer("REJECTED_BY_USER: no", true); declined.Text != "Nothing written." {
		t.Fatalf("declined: %+v", declined)
	}
}

func TestBadBranchesAreRefused(t *testing.T) {
	for name, text := range map[string]string{
		"unknown goto": `{"responses":[{"text":"a","next":[{"goto":"nowhere"}]}]}`,
		"bad pattern":  `{"responses":[{"id":"a","text":"a","next":[{"match":"(","goto":"a"}]}]}`,
		"same id":      `{"responses":[{"id":"a","text":"a"},{"id":"a","text":"b"}]}`,
		"typo":         `{"responses":[{"id":"a","text":"a","next":[{"goto":"a","iff":true}]}]}`,
	} {
		if _, err := FromBytes("bad.json", []byte(text)); errs.KindOf(err) != llm.ScriptInvalid {
			t.Errorf("%s: %v", name, err)
		}
	}
}
