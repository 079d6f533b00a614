package app

import (
	"encoding/json"
	"errors"

	"agentdesk/backend/errs"
	"agentdesk/backend/serve"
)

// Failure is an error as the frontend sees it: a stable kind, a localized message and the
// message's arguments. Wails rejects a bound call with Error(), so Error() is that JSON.
type Failure struct {
	Kind    string         `json:"kind"`
	Message string         `json:"message"`
	Args    map[string]any `json:"args,omitempty"`
	cause   *errs.Error
}

// Unwrap keeps the typed error reachable, so the browser bridge maps its kind to a status.
func (f *Failure) Unwrap() error { return f.cause }

func (f *Failure) Error() string {
	b, _ := json.Marshal(f)
	return string(b)
}

// fail localizes err for the frontend; nil stays nil.
func (s *Services) fail(err error) error {
	if err == nil {
		return nil
	}
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	e := errs.As(err)
	return &Failure{Kind: string(e.Kind), Message: s.I18n.Error(s.Language(), e), Args: e.Args, cause: e}
}

// Describe is fail in the browser bridge's wire form.
func (s *Services) Describe(err error) serve.ErrorBody {
	var f *Failure
	if !errors.As(s.fail(err), &f) {
		return serve.ErrorBody{Kind: string(errs.Internal)}
	}
	return serve.ErrorBody{Kind: f.Kind, Message: f.Message, Args: f.Args}
}
