package agent

import (
	"time"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
)

// How a step reaches the log: in one transaction where it can. The model's answer
// with calls is held back, and so are the cards and results of the read calls (read, glob,
// grep) that follow it; what is held is committed together, with the next event the turn
// records, when the step's calls end, before a call that is not a read is announced (so before
// anything changes a file or asks the person), or once the first held entry has waited
// holdLimit. Every announcement waits for the commit of what it shows: nothing reaches the bus
// that the log does not hold yet, and the bus order is the one the calls ran in. A crash can
// lose only held entries: an answer whose calls changed nothing (the deltas of its text were
// shown, as they are while it streams) and the results of reads.

// holdLimit bounds how long a held entry waits for the ones after it: in a run of slow reads,
// each card and result still shows about as soon as it came.
var holdLimit = 20 * time.Millisecond

// held is what the step has not committed yet, with the announcements that wait for it.
type held struct {
	events   []eventlog.Event
	announce []func()
	since    time.Time
}

// holdsBack reports whether a call's card and result may wait for the next commit: a read the
// gate did not ask the person about, which changes nothing whether or not it reaches the log.
func holdsBack(g *gated) bool {
	return g.desc.Gate.Kind == policy.KindRead && g.verdict.Decision != policy.DecideAsk
}

// recordAnswer logs the model's answer: at once when it ends the step, held back with its
// calls when it has some.
func (t *turn) recordAnswer(resp provider.Response) error {
	rec := assistantRecord(t.active.turnID, resp)
	if len(resp.ToolCalls) == 0 {
		return t.record(rec)
	}
	return t.hold(rec, nil)
}

// announceCall shows a call's card: with its result when both are held back, or else now,
// once what the step held (the answer that made the call, at least) is committed.
func (t *turn) announceCall(g *gated) error {
	if holdsBack(g) {
		t.held.announce = append(t.held.announce, func() { t.publishCall(g) })
		return nil
	}
	if err := t.commit(); err != nil {
		return err
	}
	t.publishCall(g)
	return nil
}

// hold keeps an event back for the next commit; announce (if any) runs once it is committed.
func (t *turn) hold(e eventlog.Event, announce func()) error {
	if len(t.held.events) == 0 {
		t.held.since = time.Now()
	}
	t.held.events = append(t.held.events, e)
	if announce != nil {
		t.held.announce = append(t.held.announce, announce)
	}
	if time.Since(t.held.since) >= holdLimit {
		return t.commit()
	}
	return nil
}

// commit writes what the step held back and then the events given, in order, in one
// transaction, and then makes the held announcements. On failure none of them is announced.
func (t *turn) commit(events ...eventlog.Event) error {
	all, announce := append(t.held.events, events...), t.held.announce
	t.held = held{}
	if len(all) > 0 {
		if _, err := t.rt.opts.Store.AppendSteps(t.sessionID, all...); err != nil {
			return err
		}
	}
	for _, a := range announce {
		a()
	}
	return nil
}
