package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
)

// decider answers the decisions of a headless run: on the terminal when there is one,
// otherwise declined at once with the reason, which reaches the model.
//
// Its bus handler never waits for the person. It queues each asked decision for the prompter,
// its own goroutine, and passes decision.resolved on to it, so a decision that times out (or is
// answered elsewhere) while its prompt waits for a line ends the prompt: the registry's timer,
// not the terminal, decides when a decision is over, and a late line answers nothing.
type decider struct {
	c       *Context
	reg     *decision.Registry
	printer *bus.Subscription
	in      io.Reader // nil: no one to answer
	lines   chan typed
	read    sync.Once

	mu      sync.Mutex
	queue   []decision.Decision
	ended   map[string]chan decision.Outcome // pending prompts: closed-over outcome when they end
	wake    chan struct{}
	stopped chan struct{}
	done    chan struct{}
}

// startDecider subscribes the decider to b; stop ends its subscription and its prompter. Before
// each prompt it lets printer catch up (if given), so the tool call being approved is on the
// screen above its question.
func (c *Context) startDecider(b *bus.Bus, reg *decision.Registry, printer *bus.Subscription) (stop func()) {
	d := &decider{c: c, reg: reg, printer: printer, lines: make(chan typed), ended: map[string]chan decision.Outcome{},
		wake: make(chan struct{}, 1), stopped: make(chan struct{}), done: make(chan struct{})}
	if c.IsTerminal != nil && c.IsTerminal() && c.Stdin != nil {
		d.in = c.Stdin
	}
	sub := b.Subscribe(d.handle)
	go d.prompter()
	return func() {
		sub.Close()
		close(d.stopped)
		<-d.done
	}
}

// handle runs on the decider's bus subscription and returns at once.
func (d *decider) handle(e bus.Event) {
	switch e.Name {
	case decision.EventAsked:
		dec := e.Data.(decision.Decision)
		if d.in == nil {
			d.decline(dec)
			return
		}
		d.mu.Lock()
		d.queue = append(d.queue, dec)
		d.ended[dec.ID] = make(chan decision.Outcome, 1)
		d.mu.Unlock()
		select {
		case d.wake <- struct{}{}:
		default:
		}
	case decision.EventResolved:
		r := e.Data.(decision.Resolved)
		d.mu.Lock()
		if ch, ok := d.ended[r.ID]; ok {
			ch <- r.Outcome
			delete(d.ended, r.ID)
		}
		d.mu.Unlock()
	}
}

func (d *decider) decline(dec decision.Decision) {
	c := d.c
	reason := c.msgs.T("en", decision.ReasonNonInteractive, nil)
	fmt.Fprintln(c.Stderr, c.T("cli.run.declined", "Reason", c.T(decision.ReasonNonInteractive)))
	d.reg.Resolve(dec.ID, decision.Resolution{Outcome: decision.Rejected, Reason: reason,
		ReasonKey: decision.ReasonNonInteractive, Answer: json.RawMessage(`{"choice":"reject"}`)})
}

// prompter puts the queued decisions to the person one at a time, in ask order.
func (d *decider) prompter() {
	defer close(d.done)
	for {
		dec, ended, ok := d.next()
		if !ok {
			return
		}
		d.catchUp()
		p := &prompt{d: d, ended: ended, shown: time.Now()}
		res, answered := d.c.askOnTerminal(dec, p)
		switch {
		case answered:
			d.reg.Resolve(dec.ID, res)
		case p.outcome != "":
			fmt.Fprintf(d.c.Stderr, "\n%s\n", d.c.T(p.outcome.ReasonKey()))
		}
	}
}

// catchUp waits, briefly, for the printer to show what came before the decision.
func (d *decider) catchUp() {
	if d.printer == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	d.printer.Sync(ctx)
}

// next waits for the next decision still pending, or the stop.
func (d *decider) next() (decision.Decision, chan decision.Outcome, bool) {
	for {
		d.mu.Lock()
		for len(d.queue) > 0 {
			dec := d.queue[0]
			d.queue = d.queue[1:]
			if ch, pending := d.ended[dec.ID]; pending {
				d.mu.Unlock()
				return dec, ch, true
			}
		}
		d.mu.Unlock()
		select {
		case <-d.wake:
		case <-d.stopped:
			return decision.Decision{}, nil, false
		}
	}
}

// typed is one line from the terminal and when it was complete.
type typed struct {
	text string
	at   time.Time
}

// startReading reads the terminal's lines on a goroutine of their own, from the first prompt
// on: a read blocked on the terminal never holds up a decision's end.
func (d *decider) startReading() {
	d.read.Do(func() {
		go func() {
			sc := bufio.NewScanner(d.in)
			for sc.Scan() {
				select {
				case d.lines <- typed{text: strings.TrimSpace(sc.Text()), at: time.Now()}:
				case <-d.stopped:
					return
				}
			}
			close(d.lines)
		}()
	})
}

// prompt is one decision's exchange on the terminal.
type prompt struct {
	d       *decider
	ended   chan decision.Outcome
	shown   time.Time        // when the prompt went up: lines typed before answer something else
	outcome decision.Outcome // set when the decision ended while its prompt waited
}

// line is the next line typed after the prompt went up ("" at the end of input), or false once
// the decision has ended without it or the run stops. A line typed earlier, such as a late
// answer to a decision that timed out, is discarded: it never answers a question not yet shown.
// ask shows the prompt key names and reads the answer.
func (c *Context) ask(p *prompt, key string) (string, bool) {
	fmt.Fprintf(c.Stderr, "%s ", c.T(key))
	return p.line()
}

func (p *prompt) line() (string, bool) {
	p.d.startReading()
	for {
		select {
		case l, ok := <-p.d.lines:
			if !ok {
				return "", true
			}
			if l.at.Before(p.shown) {
				continue
			}
			return l.text, true
		case o := <-p.ended:
			p.outcome = o
			return "", false
		case <-p.d.stopped:
			return "", false
		}
	}
}

// askOnTerminal puts one decision to the person at the terminal; false when it ended first. A
// decision whose payload does not read is declined with the error, printed in words.
func (c *Context) askOnTerminal(d decision.Decision, p *prompt) (decision.Resolution, bool) {
	payload, err := d.Read()
	if err != nil {
		return c.declineUnreadable(err), true
	}
	t := &terminalAsk{c: c, p: p}
	decision.Visit(payload, t)
	return t.res, t.answered
}

// terminalAsk asks on the terminal by the payload's kind and keeps the answer.
type terminalAsk struct {
	c        *Context
	p        *prompt
	res      decision.Resolution
	answered bool
}

func (t *terminalAsk) Question(q decision.QuestionPayload) {
	t.res, t.answered = t.c.askQuestion(q, t.p)
}
func (t *terminalAsk) Approval(a decision.ApprovalPayload) {
	t.res, t.answered = t.c.askApproval(a, t.p)
}
func (t *terminalAsk) PlanReview(pl decision.PlanPayload) { t.res, t.answered = t.c.askPlan(pl, t.p) }
func (t *terminalAsk) Sampling(s decision.SamplingPayload) {
	t.res, t.answered = t.c.sampleOnTerminal(s, t.p)
}
func (t *terminalAsk) Continue(c decision.ContinuePayload) {
	t.res, t.answered = t.c.askContinue(c, t.p)
}
func (t *terminalAsk) Elicitation(f decision.ElicitationPayload) {
	t.res, t.answered = t.c.elicitOnTerminal(f, t.p)
}

// declineUnreadable prints why a decision cannot be shown and declines it with that reason.
func (c *Context) declineUnreadable(err error) decision.Resolution {
	fmt.Fprintf(c.Stderr, "\n%s\n", c.msgs.Error(c.lang, err))
	return decision.Resolution{Outcome: decision.Rejected, Reason: c.msgs.Error("en", err)}
}

func (c *Context) askQuestion(q decision.QuestionPayload, p *prompt) (decision.Resolution, bool) {
	fmt.Fprintf(c.Stderr, "\n%s\n", q.Question)
	for i, o := range q.Options {
		fmt.Fprintf(c.Stderr, "  %d. %s\n", i+1, o)
	}
	fmt.Fprint(c.Stderr, "> ")
	answer, ok := p.line()
	if !ok {
		return decision.Resolution{}, false
	}
	if n, err := strconv.Atoi(answer); err == nil && n >= 1 && n <= len(q.Options) {
		return decision.Answer([]string{q.Options[n-1]}, ""), true
	}
	return decision.Answer(nil, answer), true
}

func (c *Context) askApproval(a decision.ApprovalPayload, p *prompt) (decision.Resolution, bool) {
	fmt.Fprintf(c.Stderr, "\n%s\n  %s\n", c.T("cli.run.approve", "Tool", a.Tool), a.Summary)
	if a.Escalation != "" {
		// A step out of the sandbox is answered for this call only, whatever is typed.
		fmt.Fprintf(c.Stderr, "  %s\n", c.T(a.ReasonKey))
	}
	choice, ok := c.ask(p, "cli.run.approveChoices")
	if !ok {
		return decision.Resolution{}, false
	}
	switch strings.ToLower(choice) {
	case "y", "yes", "是":
		return decision.Approval(decision.AllowOnce, ""), true
	case "s", "session":
		return decision.Approval(decision.AllowSession, ""), true
	case "a", "always":
		return decision.Approval(decision.AllowAlways, ""), true
	}
	reason, ok := c.ask(p, "cli.run.rejectReason")
	return decision.Approval(decision.Reject, reason), ok
}

func (c *Context) askContinue(pl decision.ContinuePayload, p *prompt) (decision.Resolution, bool) {
	fmt.Fprintf(c.Stderr, "\n%s\n%s ", c.T("composer.continue.title", "Count", pl.Steps), c.T("cli.run.continueChoices"))
	answer, ok := p.line()
	if !ok {
		return decision.Resolution{}, false
	}
	if a := strings.ToLower(answer); a == "y" || a == "yes" || a == "是" {
		return decision.Continue(decision.ContinueTurn), true
	}
	return decision.Continue(decision.StopTurn), true
}

func (c *Context) askPlan(plan decision.PlanPayload, p *prompt) (decision.Resolution, bool) {
	fmt.Fprintf(c.Stderr, "\n%s\n\n%s\n\n%s ", c.T("cli.run.planReview"), plan.Plan, c.T("cli.run.planChoices"))
	answer, ok := p.line()
	if !ok {
		return decision.Resolution{}, false
	}
	if a := strings.ToLower(answer); a == "y" || a == "yes" {
		return decision.Plan(decision.ApprovePlan, ""), true
	}
	feedback, ok := c.ask(p, "cli.run.feedback")
	return decision.Plan(decision.KeepPlanning, feedback), ok
}
