package agent

import (
	"strconv"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// The step limit bounds the model requests of a turn before it pauses to ask whether to go on:
// a loop that runs away costs at most one limit's requests before the person hears of it, and a
// long task is never lost to it.
const (
	SettingStepLimit = "step-limit"
	DefaultStepLimit = 200
	maxStepLimit     = 10000
)

// TooManySteps ends a turn the person stopped at its step limit (or whose continue decision
// ended unanswered). Everything it did is kept.
const TooManySteps errs.Kind = "TOO_MANY_STEPS"

// ParseStepLimit reads a step-limit value: a whole number from 1 to 10000.
func ParseStepLimit(raw string) (int, error) {
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxStepLimit {
		return 0, errs.Invalid("step-limit", raw, []string{"1…" + strconv.Itoa(maxStepLimit)})
	}
	return n, nil
}

// StepLimit is the step-limit setting, read at every turn so a change applies to the next one;
// an unset or unreadable value is the default.
func StepLimit(st store.SettingReader) int {
	return store.SettingOr(st, SettingStepLimit, ParseStepLimit, DefaultStepLimit)
}

// stepLimit is how many model requests a turn makes between two continue decisions.
func (r *Runtime) stepLimit() int {
	if r.opts.MaxSteps > 0 {
		return r.opts.MaxSteps
	}
	return StepLimit(r.opts.Store)
}

// takeStep counts a model request; at the limit the turn waits for the person to let it go on.
func (t *turn) takeStep() error {
	if t.limit == 0 {
		t.limit = t.rt.stepLimit()
	}
	if t.steps >= t.limit {
		if err := t.askToContinue(); err != nil {
			return err
		}
	}
	t.steps++
	return nil
}

// askToContinue puts the continue decision: Continue allows another run of steps; Stop, a
// timeout or an answer that does not read ends the turn with what it did.
func (t *turn) askToContinue() error {
	stop := errs.New(TooManySteps, "Max", t.steps)
	res, err := t.ask(decision.KindContinue, decision.ContinuePayload{Steps: t.steps, Limit: t.rt.stepLimit()})
	if err != nil {
		return err
	}
	if res.Outcome != decision.Answered {
		return stop
	}
	a, err := decision.ParseContinue(res.Answer)
	if err != nil || a.Choice != decision.ContinueTurn {
		return stop
	}
	t.limit = t.steps + t.rt.stepLimit()
	return nil
}
