// Package errs defines error kinds: stable strings that the UI translates and tests assert.
// It depends on the standard library only.
package errs

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Kind is a stable error code. The locale key of its message is "error." + Kind.
type Kind string

const (
	Internal     Kind = "INTERNAL"
	InvalidValue Kind = "INVALID_VALUE"
	InvalidInput Kind = "INVALID_INPUT"
	NotFound     Kind = "NOT_FOUND"
	SchemaTooNew Kind = "SCHEMA_TOO_NEW"
	StoreFailure Kind = "STORE_FAILURE"
	// NotAgentDeskDatabase is a file in the database's place that is not one (or whose header
	// is destroyed); DatabaseDamaged one that SQLite finds malformed, opened read-only.
	NotAgentDeskDatabase Kind = "NOT_AGENTDESK_DATABASE"
	DatabaseDamaged      Kind = "DATABASE_DAMAGED"
	Unauthorized         Kind = "UNAUTHORIZED"
	Forbidden            Kind = "FORBIDDEN_ORIGIN"
	UnknownMethod        Kind = "UNKNOWN_METHOD"
	NoWorkspace          Kind = "WORKSPACE_NOT_FOUND"
	Usage                Kind = "USAGE"
	AlreadyExists        Kind = "ALREADY_EXISTS"
	MissingArgument      Kind = "MISSING_ARGUMENT"
)

// Error carries a Kind, the template arguments of its localized message, and an optional cause.
type Error struct {
	Kind Kind
	Args map[string]any
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Kind))
	keys := make([]string, 0, len(e.Args))
	for k := range e.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, e.Args[k])
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error of kind k with message arguments given as key, value pairs.
func New(k Kind, kv ...any) *Error {
	e := &Error{Kind: k}
	if len(kv) > 0 {
		e.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args[fmt.Sprint(kv[i])] = kv[i+1]
		}
	}
	return e
}

// Wrap returns an error of kind k caused by err.
func Wrap(k Kind, err error, kv ...any) *Error {
	e := New(k, kv...)
	e.Err = err
	return e
}

// Invalid reports a bad value for a named field, listing the allowed values.
func Invalid(field, value string, allowed []string) *Error {
	return New(InvalidValue, "Field", field, "Value", value, "Allowed", strings.Join(allowed, ", "))
}

// KindOf returns the kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// As returns the first *Error in err's chain, wrapping any other error as Internal.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Wrap(Internal, err)
}
