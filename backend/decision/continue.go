package decision

import (
	"encoding/json"
	"slices"

	"agentdesk/backend/errs"
)

// A long turn pauses at its step limit instead of failing: the composer asks whether to go on
// for another run of steps or to stop here, keeping everything the turn did.

// ContinueChoice is a button of the continue composer.
type ContinueChoice string

const (
	ContinueTurn ContinueChoice = "continue"
	StopTurn     ContinueChoice = "stop"
)

var continueChoices = []ContinueChoice{ContinueTurn, StopTurn}

// ContinuePayload says how far the turn went: the model requests it made and the limit it
// reached (the step-limit setting, or what the person allowed on top of it).
type ContinuePayload struct {
	Steps int `json:"steps"`
	Limit int `json:"limit"`
}

// ContinueAnswer is the Answer of a continue decision.
type ContinueAnswer struct {
	Choice ContinueChoice `json:"choice"`
}

// Continue builds the resolution of a continue decision.
func Continue(c ContinueChoice) Resolution {
	return Resolution{Outcome: Answered, Answer: mustJSON(ContinueAnswer{Choice: c})}
}

// ParseContinue reads a continue decision's answer; an unknown choice is INVALID_VALUE.
func ParseContinue(raw json.RawMessage) (ContinueAnswer, error) {
	var a ContinueAnswer
	if err := decodeStrict(raw, &a, "choice"); err != nil {
		return a, err
	}
	if !slices.Contains(continueChoices, a.Choice) {
		return a, errs.Invalid("choice", string(a.Choice), names(continueChoices))
	}
	return a, nil
}

func (p ContinuePayload) validate() error {
	if p.Limit <= 0 {
		return errs.New(errs.InvalidValue, "Field", "limit")
	}
	return nil
}

func (p ContinuePayload) visit(v PayloadVisitor) { v.Continue(p) }
