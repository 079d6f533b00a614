package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"agentdesk/backend/display"
	"agentdesk/backend/mode"
)

var askUserSpec = spec{tool: mode.ToolAskUser, params: []param{
	{name: "question", typ: "string", title: "Question", required: true, nonBlank: true,
		description: "The question, complete enough to answer without other context."},
	{name: "options", typ: "array", title: "Options", nonEmpty: true,
		description: "Answers to choose from. Leave out for a free-text answer; the person may always type their own."},
	{name: "multiple", typ: "boolean", title: "Several answers", def: false,
		description: "Whether more than one option may be chosen. Needs options."},
}}

const askUserDescription = `Asks the person a question and waits for the answer. Use it when you cannot proceed well without their decision or information (a choice between approaches, a missing requirement); do not ask about things you can find out with the other tools.
Give options for a choice (set multiple to true when several may apply) or none for a free-text answer.
If the question is declined or times out, the call fails with the reason: continue on a sensible assumption and state it.`

type askUserInput struct {
	Question string   `json:"question"`
	Options  []string `json:"options"`
	Multiple bool     `json:"multiple"`
}

type askUserTool struct{ about }

var askUserSchema = askUserSpec.schema()

func (askUserTool) decode(input json.RawMessage) (askUserInput, error) {
	var in askUserInput
	if err := askUserSpec.decode(input, &in); err != nil {
		return in, err
	}
	if in.Multiple && len(in.Options) == 0 {
		return in, askUserSpec.invalid(`"multiple" needs "options" to choose from`)
	}
	seen := map[string]bool{}
	for _, o := range in.Options {
		if seen[o] {
			return in, askUserSpec.invalid(fmt.Sprintf("the option %q appears twice", o))
		}
		seen[o] = true
	}
	return in, nil
}

func (t askUserTool) Describe(input json.RawMessage) (Call, error) {
	in, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	pairs := []string{"question", in.Question}
	if len(in.Options) > 0 {
		pairs = append(pairs, "options", "- "+strings.Join(in.Options, "\n- "), "multiple", strconv.FormatBool(in.Multiple))
	}
	return Call{Gate: gateCall(mode.ToolAskUser, "", ""), Summary: summary(pairs...)}, nil
}

func (t askUserTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	if env.Ask == nil {
		return declined("The question was not answered.", "tool.result.ask.declined", "no one can answer questions here",
			display.Say("decision.reason.non_interactive")), nil
	}
	a, err := env.Ask(ctx, Question{Text: in.Question, Options: in.Options, Multiple: in.Multiple})
	if err != nil {
		return Result{}, err
	}
	if a.Declined {
		return declined("The question was not answered.", "tool.result.ask.declined", a.Reason, a.Why), nil
	}
	return answerResult(a.Values), nil
}

func answerResult(values []string) Result {
	switch len(values) {
	case 0:
		return Result{Output: "The person chose none of the options.", Display: display.Say("tool.result.ask.none"), Answered: true}
	case 1:
		return Result{Output: "The person answered:\n" + values[0], Display: display.Say("tool.result.ask.answered", "Answer", values[0]), Answered: true}
	}
	list := "- " + strings.Join(values, "\n- ")
	return Result{Output: "The person chose:\n" + list, Display: display.Say("tool.result.ask.chose", "Answers", list), Answered: true}
}

// declined is the error result of a decision that got no answer; the reason (rejected, timed
// out, cancelled, no one to ask) comes from the agent as it is, for the model, and why for the
// person.
func declined(what, key, reason string, why *display.Message) Result {
	if strings.TrimSpace(reason) == "" {
		reason = "none given"
	}
	if why == nil {
		why = display.Say("tool.result.noReason")
	}
	return Result{Output: what + "\nReason: " + reason, IsError: true, Display: display.Say(key, "Why", why)}
}
