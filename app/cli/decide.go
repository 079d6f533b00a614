package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
)

// decider answers decisions for a headless run: on the terminal when there is one, otherwise
// declined at once with the reason, which reaches the model.
func (c *Context) decider(reg *decision.Registry) func(bus.Event) {
	interactive := c.IsTerminal != nil && c.IsTerminal()
	var lines *bufio.Scanner
	if interactive && c.Stdin != nil {
		lines = bufio.NewScanner(c.Stdin)
	}
	return func(e bus.Event) {
		if e.Name != decision.EventAsked {
			return
		}
		d := e.Data.(decision.Decision)
		if lines == nil {
			reason := c.msgs.T("en", decision.ReasonNonInteractive, nil)
			fmt.Fprintln(c.Stderr, c.T("cli.run.declined", "Reason", c.T(decision.ReasonNonInteractive)))
			go reg.Resolve(d.ID, decision.Resolution{Outcome: decision.Rejected, Reason: reason, ReasonKey: decision.ReasonNonInteractive,
				Answer: json.RawMessage(`{"choice":"reject"}`)})
			return
		}
		go reg.Resolve(d.ID, c.askOnTerminal(d, lines))
	}
}

// askOnTerminal puts one decision to the person at the terminal.
func (c *Context) askOnTerminal(d decision.Decision, lines *bufio.Scanner) decision.Resolution {
	switch d.Kind {
	case decision.KindApproval:
		var p agent.ApprovalPayload
		json.Unmarshal(d.Payload, &p)
		fmt.Fprintf(c.Stderr, "\n%s\n  %s\n", c.T("cli.run.approve", "Tool", p.Tool), p.Summary)
		if p.Escalation != "" {
			// A step out of the sandbox is answered for this call only, whatever is typed.
			fmt.Fprintf(c.Stderr, "  %s\n", c.T(p.ReasonKey))
		}
		fmt.Fprintf(c.Stderr, "%s ", c.T("cli.run.approveChoices"))
		switch strings.ToLower(c.readLine(lines)) {
		case "y", "yes", "是":
			return decision.Approval(decision.AllowOnce, "")
		case "s", "session":
			return decision.Approval(decision.AllowSession, "")
		case "a", "always":
			return decision.Approval(decision.AllowAlways, "")
		}
		fmt.Fprintf(c.Stderr, "%s ", c.T("cli.run.rejectReason"))
		return decision.Approval(decision.Reject, c.readLine(lines))
	case decision.KindPlanReview:
		var p agent.PlanPayload
		json.Unmarshal(d.Payload, &p)
		fmt.Fprintf(c.Stderr, "\n%s\n\n%s\n\n%s ", c.T("cli.run.planReview"), p.Plan, c.T("cli.run.planChoices"))
		if a := strings.ToLower(c.readLine(lines)); a == "y" || a == "yes" {
			return decision.Plan(decision.ApprovePlan, "")
		}
		fmt.Fprintf(c.Stderr, "%s ", c.T("cli.run.feedback"))
		return decision.Plan(decision.KeepPlanning, c.readLine(lines))
	}
	var q agent.QuestionPayload
	json.Unmarshal(d.Payload, &q)
	fmt.Fprintf(c.Stderr, "\n%s\n", q.Question)
	for i, o := range q.Options {
		fmt.Fprintf(c.Stderr, "  %d. %s\n", i+1, o)
	}
	fmt.Fprint(c.Stderr, "> ")
	answer := c.readLine(lines)
	if n, err := strconv.Atoi(answer); err == nil && n >= 1 && n <= len(q.Options) {
		return decision.Answer([]string{q.Options[n-1]}, "")
	}
	return decision.Answer(nil, answer)
}

func (c *Context) readLine(lines *bufio.Scanner) string {
	if !lines.Scan() {
		return ""
	}
	return strings.TrimSpace(lines.Text())
}
