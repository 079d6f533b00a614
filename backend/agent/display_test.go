package agent

import (
	"strings"
	"testing"
	"time"

	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
)

// Issue 12: the model reads English with codes; the person's results carry a locale key, from
// the same event. A timed-out question says so (not "allowed"), a rejection names the person's
// reason, keeping planning is the person's own answer, and a failed turn says why.
func TestThePersonReadsResultsAsMessagesFromTheSameEvents(t *testing.T) {
	script := `{"responses":[
	  {"tool_calls":[{"name":"ask_user","input":{"question":"Which greeting?","options":["Hi","Hello"]}}]},
	  {"tool_calls":[{"name":"write","input":{"path":"a.txt","content":"x"}}]},
	  {"tool_calls":[{"name":"exit_plan_mode","input":{"plan":"# P"}}]},
	  {"text":"done"}
	]}`
	h := newHarness(t, script, harnessOpts{override: "execute", timeout: 50 * time.Millisecond})
	h.onDecision(func(d decision.Decision) *decision.Resolution {
		switch d.Kind {
		case decision.KindApproval:
			res := decision.Approval(decision.Reject, "not that file")
			return &res
		case decision.KindPlanReview:
			res := decision.Plan(decision.KeepPlanning, "smaller steps")
			return &res
		}
		return nil // the question times out
	})
	h.send("go", mode.FollowUpInput{})
	results := h.named(EventToolDone)
	if len(results) != 3 {
		t.Fatalf("results %+v", results)
	}
	byName := map[string]ToolDoneView{}
	for _, e := range results {
		v := e.Data.(ToolDoneView)
		byName[v.Name] = v
	}
	q := byName["ask_user"]
	if q.Approved != "timed_out" || q.Display == nil || q.Display.Key != "tool.result.ask.declined" {
		t.Fatalf("timed-out question: %+v", q)
	}
	if why, _ := q.Display.Args["Why"].(*display.Message); why == nil || why.Key != "error.DECISION_TIMED_OUT" {
		t.Fatalf("why: %+v", q.Display.Args)
	}
	w := byName["write"]
	if w.Approved != "rejected" || !w.IsError || w.Display == nil || w.Display.Key != "tool.result.rejectedWithReason" ||
		w.Display.Args["Reason"] != "not that file" || w.Output != "REJECTED_BY_USER: not that file" {
		t.Fatalf("rejected write: %+v", w)
	}
	// Denied by the mode's profile: the model reads the code, the person its message.
	p := byName["exit_plan_mode"]
	if p.Display == nil || p.Display.Key != "error.TOOL_DISABLED_IN_MODE" || !strings.HasPrefix(p.Output, "TOOL_DISABLED_IN_MODE: ") {
		t.Fatalf("denied: %+v", p)
	}
	// The stored record says the same after a reload.
	events, _ := h.st.Events(h.session)
	var stored int
	for _, e := range events {
		if e.Type == eventlog.TypeToolResult && strings.Contains(e.Payload, `"display":{"key":"tool.result.`) {
			stored++
		}
	}
	if stored != 2 {
		t.Fatalf("%d stored results carry their tool display", stored)
	}
}

func TestKeepPlanningIsThePersonsAnswerNotAnError(t *testing.T) {
	h := newHarness(t, `{"responses":[{"tool_calls":[{"name":"exit_plan_mode","input":{"plan":"# P"}}]},{"text":"revising"}]}`,
		harnessOpts{override: "plan"})
	h.onDecision(func(decision.Decision) *decision.Resolution {
		res := decision.Plan(decision.KeepPlanning, "smaller steps")
		return &res
	})
	h.send("plan it", mode.FollowUpInput{})
	p := h.named(EventToolDone)[0].Data.(ToolDoneView)
	if p.Approved != "keep_planning" || !p.Answered || !p.IsError || p.Output != "smaller steps" ||
		p.Display == nil || p.Display.Key != "tool.result.plan.keepPlanning" {
		t.Fatalf("keep planning: %+v", p)
	}
}

func TestAFailedTurnSaysWhyToThePerson(t *testing.T) {
	h := newHarness(t, `{"responses":[]}`, harnessOpts{})
	h.send("hello", mode.FollowUpInput{})
	ended := h.named(EventTurnEnded)
	if len(ended) != 1 {
		t.Fatalf("ended %+v", ended)
	}
	e := ended[0].Data.(TurnEnded)
	if e.Status != "failed" || e.Failure == nil || e.Failure.Key != "error.SCRIPT_EXHAUSTED" || e.Failure.Args["Count"] != 0 {
		t.Fatalf("failure %+v", e)
	}
}
