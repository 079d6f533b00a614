package tool

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"agentdesk/backend/mode"
)

func askWith(answer Answer, err error, got *Question) Env {
	return Env{Ask: func(_ context.Context, q Question) (Answer, error) {
		*got = q
		return answer, err
	}}
}

func TestAskUserPassesTheQuestionAndReturnsTheAnswer(t *testing.T) {
	var q Question
	res := mustRun(t, mode.ToolAskUser, askWith(Answer{Values: []string{"Postgres"}}, nil, &q),
		`{"question":"Which database?","options":["Postgres","SQLite"]}`)
	if want := (Question{Text: "Which database?", Options: []string{"Postgres", "SQLite"}}); !reflect.DeepEqual(q, want) {
		t.Fatalf("question %+v", q)
	}
	if res.IsError || res.Output != "The person answered:\nPostgres" {
		t.Fatalf("got %+v", res)
	}
	res = mustRun(t, mode.ToolAskUser, askWith(Answer{Values: []string{"a", "c"}}, nil, &q),
		`{"question":"Which?","options":["a","b","c"],"multiple":true}`)
	if !q.Multiple || res.Output != "The person chose:\n- a\n- c" {
		t.Fatalf("multiple: %+v, %q", q, res.Output)
	}
	res = mustRun(t, mode.ToolAskUser, askWith(Answer{}, nil, &q), `{"question":"Any?","options":["a"],"multiple":true}`)
	if res.Output != "The person chose none of the options." {
		t.Fatalf("none: %q", res.Output)
	}
}

func TestAskUserDeclinedIsAnErrorWithTheReason(t *testing.T) {
	var q Question
	res := mustRun(t, mode.ToolAskUser, askWith(Answer{Declined: true, Reason: "no one to answer (non-interactive run)"}, nil, &q),
		`{"question":"Proceed?"}`)
	if !res.IsError || res.Output != "The question was not answered.\nReason: no one to answer (non-interactive run)" {
		t.Fatalf("got %+v", res)
	}
	res = mustRun(t, mode.ToolAskUser, Env{}, `{"question":"Proceed?"}`)
	if !res.IsError {
		t.Fatalf("without Ask: %+v", res)
	}
	boom := errors.New("registry closed")
	if _, err := run(t, mode.ToolAskUser, askWith(Answer{}, boom, &q), `{"question":"Proceed?"}`); !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
}
