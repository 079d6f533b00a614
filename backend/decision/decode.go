package decision

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"agentdesk/backend/errs"
)

// PayloadUnreadable is a decision whose payload does not read as its kind's. Readers show it
// and decline the decision with it: a decision no one can read must not be answered blind.
const PayloadUnreadable errs.Kind = "DECISION_PAYLOAD_UNREADABLE"

// Payload is a decision's payload read as its kind's type; Visit hands it to the reader.
type Payload interface{ visit(PayloadVisitor) }

// PayloadVisitor reads a payload of any kind, one method per kind, so a reader that shows every
// kind cannot forget one. There is no method for an unreadable payload: ReadPayload returns it
// as an error, which the reader must handle before it visits.
type PayloadVisitor interface {
	Question(QuestionPayload)
	Approval(ApprovalPayload)
	PlanReview(PlanPayload)
	Elicitation(ElicitationPayload)
	Sampling(SamplingPayload)
	Continue(ContinuePayload)
}

// Visit hands p to the method of v for its kind.
func Visit(p Payload, v PayloadVisitor) { p.visit(v) }

// ReadPayload reads a payload of the given kind; what does not read is PayloadUnreadable.
func ReadPayload(kind Kind, raw []byte) (Payload, error) {
	d, ok := payloadDecoders[kind]
	if !ok {
		return nil, unreadable(kind, fmt.Errorf("unknown decision kind %q", kind))
	}
	return d(raw)
}

// Read reads d's payload by its kind.
func (d Decision) Read() (Payload, error) { return ReadPayload(d.Kind, d.Payload) }

// payloadDecoders holds, for every kind, how to read its payload.
var payloadDecoders = map[Kind]func(raw []byte) (Payload, error){
	KindQuestion:    asPayload(KindQuestion, decodeAs[QuestionPayload]),
	KindApproval:    asPayload(KindApproval, decodeAs[ApprovalPayload]),
	KindPlanReview:  asPayload(KindPlanReview, decodeAs[PlanPayload]),
	KindElicitation: asPayload(KindElicitation, decodeAs[ElicitationPayload]),
	KindSampling:    asPayload(KindSampling, decodeAs[SamplingPayload]),
	KindContinue:    asPayload(KindContinue, decodeAs[ContinuePayload]),
}

// DecodeQuestion reads d as a question.
func DecodeQuestion(d Decision) (QuestionPayload, error) {
	return decodeKind[QuestionPayload](d, KindQuestion)
}

// DecodeElicitation reads d as an elicitation.
func DecodeElicitation(d Decision) (ElicitationPayload, error) {
	return decodeKind[ElicitationPayload](d, KindElicitation)
}

// checked is a payload that can tell whether its decoded fields can be shown.
type checked interface{ validate() error }

func decodeKind[T checked](d Decision, want Kind) (T, error) {
	if d.Kind != want {
		var zero T
		return zero, unreadable(d.Kind, fmt.Errorf("a %s decision read as a %s", d.Kind, want))
	}
	v, err := decodeAs[T](d.Payload)
	if err != nil {
		return v, unreadable(want, err)
	}
	return v, nil
}

// decodeAs reads a JSON object into T and validates it; every kind's payload is an object.
// Unknown fields are kept out of the way, not refused: a newer writer may add one.
func decodeAs[T checked](raw []byte) (T, error) {
	var v T
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return v, errors.New("the payload is not a JSON object")
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, err
	}
	return v, v.validate()
}

func asPayload[T interface {
	checked
	Payload
}](kind Kind, decode func([]byte) (T, error)) func([]byte) (Payload, error) {
	return func(raw []byte) (Payload, error) {
		v, err := decode(raw)
		if err != nil {
			return nil, unreadable(kind, err)
		}
		return v, nil
	}
}

func unreadable(kind Kind, err error) error {
	return errs.Wrap(PayloadUnreadable, err, "Kind", string(kind), "Reason", err.Error())
}

func missing(field, value string) error {
	if value == "" {
		return fmt.Errorf("%s is missing", field)
	}
	return nil
}

func (p QuestionPayload) validate() error { return missing("question", p.Question) }
func (p ApprovalPayload) validate() error { return missing("tool", p.Tool) }
func (p PlanPayload) validate() error     { return missing("plan", p.Plan) }
func (p SamplingPayload) validate() error { return missing("server", p.Server) }

func (p ElicitationPayload) validate() error {
	if err := missing("server", p.Server); err != nil {
		return err
	}
	_, err := p.fields()
	return err
}

func (p QuestionPayload) visit(v PayloadVisitor)    { v.Question(p) }
func (p ApprovalPayload) visit(v PayloadVisitor)    { v.Approval(p) }
func (p PlanPayload) visit(v PayloadVisitor)        { v.PlanReview(p) }
func (p ElicitationPayload) visit(v PayloadVisitor) { v.Elicitation(p) }
func (p SamplingPayload) visit(v PayloadVisitor)    { v.Sampling(p) }
