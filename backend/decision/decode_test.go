package decision

import (
	"encoding/json"
	"testing"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
)

// seen records which visitor method a payload reached, and the payload.
type seen struct {
	kind Kind
	got  any
}

func (s *seen) Question(p QuestionPayload)       { s.kind, s.got = KindQuestion, p }
func (s *seen) Approval(p ApprovalPayload)       { s.kind, s.got = KindApproval, p }
func (s *seen) PlanReview(p PlanPayload)         { s.kind, s.got = KindPlanReview, p }
func (s *seen) Elicitation(p ElicitationPayload) { s.kind, s.got = KindElicitation, p }
func (s *seen) Sampling(p SamplingPayload)       { s.kind, s.got = KindSampling, p }
func (s *seen) Continue(p ContinuePayload)       { s.kind, s.got = KindContinue, p }

func decisionOf(t *testing.T, kind Kind, payload any) Decision {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return Decision{ID: "d1", Kind: kind, Payload: raw}
}

// Every kind's payload, as its writer builds it, reads back whole through the one decoder and
// reaches the visitor's method for that kind.
func TestEveryKindReadsBackThroughItsDecoder(t *testing.T) {
	payloads := map[Kind]any{
		KindQuestion: QuestionPayload{Question: "Which?", Options: []string{"a", "b"}, Multiple: true},
		KindApproval: ApprovalPayload{Tool: "write", Summary: "write a.txt", Path: "a.txt",
			Scopes: []ScopeOption{{ID: ScopeExact, Path: "a.txt"}}, Change: &display.Change{Path: "a.txt", After: "hi\n", Created: true}},
		KindPlanReview: PlanPayload{Plan: "# Plan\n\nsteps", Title: "Plan"},
		KindElicitation: ElicitationPayload{Server: "fx", Tool: "form", Message: "Your name?",
			Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)},
		KindSampling: SamplingPayload{Server: "fx", Tool: "ask", Model: "m", Messages: []SamplingMessage{{Role: "user", Text: "hi"}}, MaxTokens: 9},
		KindContinue: ContinuePayload{Steps: 200, Limit: 200},
	}
	for _, kind := range Kinds {
		want, ok := payloads[kind]
		if !ok {
			t.Fatalf("no payload for kind %s", kind)
		}
		p, err := decisionOf(t, kind, want).Read()
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var s seen
		Visit(p, &s)
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(s.got)
		if s.kind != kind || string(gotJSON) != string(wantJSON) {
			t.Errorf("%s read as %s: %s, want %s", kind, s.kind, gotJSON, wantJSON)
		}
	}
}

// A payload that does not read as its kind's is an error of its own kind, naming the kind and
// why, never a zero payload shown as if it were the question.
func TestAnUnreadablePayloadIsAnErrorNamingWhy(t *testing.T) {
	cases := map[string]struct {
		kind Kind
		raw  string
	}{
		"not JSON":                  {KindApproval, `{"tool":`},
		"not an object":             {KindQuestion, `"Which?"`},
		"empty":                     {KindPlanReview, ``},
		"a field of the wrong type": {KindQuestion, `{"question":"?","options":"a"}`},
		"a question without text":   {KindQuestion, `{"options":["a"]}`},
		"an approval without tool":  {KindApproval, `{"summary":"rm x"}`},
		"a plan without a plan":     {KindPlanReview, `{"title":"P"}`},
		"a form without a server":   {KindElicitation, `{"message":"?"}`},
		"a form's unreadable schema": {KindElicitation,
			`{"server":"fx","message":"?","schema":{"properties":{"a":{"type":7}}}}`},
		"sampling without a server": {KindSampling, `{"model":"m"}`},
		"continue without a limit":  {KindContinue, `{"steps":3}`},
		"an unknown kind":           {Kind("survey"), `{}`},
	}
	for name, c := range cases {
		_, err := ReadPayload(c.kind, []byte(c.raw))
		e := errs.As(err)
		if err == nil || e.Kind != PayloadUnreadable || e.Args["Kind"] != string(c.kind) || e.Args["Reason"] == "" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A typed decoder reads only its own kind: an approval is never read as a question.
func TestATypedDecoderRefusesAnotherKind(t *testing.T) {
	d := decisionOf(t, KindApproval, ApprovalPayload{Tool: "bash", Summary: "ls"})
	if _, err := DecodeQuestion(d); errs.KindOf(err) != PayloadUnreadable {
		t.Fatalf("an approval read as a question: %v", err)
	}
	if a, err := decodeKind[ApprovalPayload](d, KindApproval); err != nil || a.Summary != "ls" {
		t.Fatalf("the approval: %+v, %v", a, err)
	}
}

// A terminal builds the form from the schema's properties, in name order, with their types
// (a nullable type reads as its other type) and which are required.
func TestAFormsFieldsComeFromItsSchema(t *testing.T) {
	p := ElicitationPayload{Server: "fx", Schema: json.RawMessage(`{"type":"object",
		"properties":{"name":{"type":"string","title":"Name"},"age":{"type":["integer","null"]},"size":{"type":"string","enum":["s","m"]}},
		"required":["name"]}`)}
	fields, err := p.Fields()
	if err != nil {
		t.Fatal(err)
	}
	bad := ElicitationPayload{Server: "fx", Schema: json.RawMessage(`{"properties":[]}`)}
	if _, err := bad.Fields(); errs.KindOf(err) != PayloadUnreadable {
		t.Fatalf("a schema whose properties are a list: %v", err)
	}
	got, _ := json.Marshal(fields)
	want := `[{"Name":"age","Title":"","Type":"integer","Enum":null,"Required":false},` +
		`{"Name":"name","Title":"Name","Type":"string","Enum":null,"Required":true},` +
		`{"Name":"size","Title":"","Type":"string","Enum":["s","m"],"Required":false}]`
	if string(got) != want {
		t.Fatalf("fields %s", got)
	}
}
