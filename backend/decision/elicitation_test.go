package decision

import (
	"context"
	"encoding/json"
	"testing"

	"agentdesk/backend/errs"
)

func elicitation(sessionID string) Request {
	return Request{SessionID: sessionID, TurnID: "turn-1", Kind: KindElicitation, Payload: ElicitationPayload{
		Server: "notes", Tool: "greet", Message: "Who?",
		Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}`)}}
}

// An elicitation is answered with a form that fits its schema; one that does not leaves it
// pending, so nothing malformed reaches the server.
func TestElicitationAnswerMustFitTheSchema(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	a := g.ask(context.Background(), elicitation(sid))
	d := g.waitPending(t, sid, 1)[0]
	for name, bad := range map[string]Resolution{
		"a missing required field": Elicitation(Accept, map[string]any{"age": 3}),
		"a wrong type":             Elicitation(Accept, map[string]any{"name": "x", "age": "three"}),
		"an unknown action":        {Outcome: Answered, Answer: json.RawMessage(`{"action":"maybe"}`)},
		"an unknown field":         {Outcome: Answered, Answer: json.RawMessage(`{"action":"accept","extra":1}`)},
	} {
		if ok, err := g.reg.Resolve(d.ID, bad); ok || errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("%s: ok %v, %v", name, ok, err)
		}
	}
	if len(g.reg.Pending(sid)) != 1 {
		t.Fatal("a bad answer ended the elicitation")
	}
	if ok, err := g.reg.Resolve(d.ID, Elicitation(Accept, map[string]any{"name": "Ada", "age": 36})); !ok || err != nil {
		t.Fatalf("a fitting answer: %v, %v", ok, err)
	}
	_, res := a.wait(t)
	got, err := ParseElicitation(res.Answer)
	if err != nil || got.Action != Accept || got.Content["name"] != "Ada" {
		t.Fatalf("answer %+v, %v", got, err)
	}
}

func TestElicitationDeclined(t *testing.T) {
	g := newRig(t, Options{})
	sid := g.session(t, "a")
	a := g.ask(context.Background(), elicitation(sid))
	d := g.waitPending(t, sid, 1)[0]
	if ok, err := g.reg.Resolve(d.ID, Elicitation(Decline, map[string]any{"ignored": true})); !ok || err != nil {
		t.Fatalf("decline: %v, %v", ok, err)
	}
	_, res := a.wait(t)
	if got, _ := ParseElicitation(res.Answer); got.Action != Decline || got.Content != nil {
		t.Fatalf("a declined form carries no content: %+v", got)
	}
}
