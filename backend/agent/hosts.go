package agent

import (
	"context"
	"sync"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// hostDecider is the network proxy's policy for one bash call: a host the session or a Settings
// rule approved passes, one a deny rule names is refused, and any other is put to the person in
// the composer while the connection waits ("allow once" covers the rest of this command). Each
// host is asked about once per call, however many connections the command opens to it.
type hostDecider struct {
	t       *turn
	command string
	mu      sync.Mutex
	answers map[string]*hostAnswer
}

type hostAnswer struct {
	done  chan struct{}
	allow bool
}

// hostProxy is the proxy configuration of a bash call: any public host once the person let the
// call reach the network, else only approved hosts.
func (t *turn) hostProxy(command string, network bool) *netproxy.Config {
	if network {
		return &netproxy.Config{Mode: netproxy.Full, Decide: tool.AnyPublicHost}
	}
	d := &hostDecider{t: t, command: command, answers: map[string]*hostAnswer{}}
	return &netproxy.Config{Mode: netproxy.Full, Decide: d.Decide}
}

// Decide answers the proxy. An answer cut short by the connection hanging up is not kept.
func (d *hostDecider) Decide(ctx context.Context, host string, _ int) netproxy.Verdict {
	host = policy.NormalHost(host)
	a, first := d.answerFor(host)
	if first {
		allow, settled := d.decide(ctx, host)
		if !settled {
			d.forget(host, a)
		}
		a.allow = allow
		close(a.done)
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		return declined(host)
	}
	if !a.allow {
		return declined(host)
	}
	return netproxy.Approve()
}

func (d *hostDecider) answerFor(host string) (*hostAnswer, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if a, ok := d.answers[host]; ok {
		return a, false
	}
	a := &hostAnswer{done: make(chan struct{})}
	d.answers[host] = a
	return a, true
}

func (d *hostDecider) forget(host string, a *hostAnswer) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.answers[host] == a {
		delete(d.answers, host)
	}
}

// decide reads the rules and grants as they are now, then asks; settled is false when the
// question ended without an answer from the person (the connection or the turn ended).
func (d *hostDecider) decide(ctx context.Context, host string) (allow, settled bool) {
	in, err := d.t.rt.opts.Store.GateInputsCached(&d.t.gate, d.t.sessionID)
	switch {
	case err != nil:
		return false, false
	case policy.HostDenied(in.Rules, host):
		return false, true
	case policy.HostApproved(in.Grants, in.Rules, host):
		return true, true
	}
	res, err := d.t.askIn(ctx, decision.KindApproval, decision.ApprovalPayload{Tool: "bash", Kind: string(policy.KindHost),
		Summary: host, Command: d.command, ReasonKey: "gate.reason.host", ReasonArgs: map[string]any{"Host": host}})
	if err != nil {
		return false, false
	}
	if decision.GateError(res) != nil {
		return false, true
	}
	a, err := decision.ParseApproval(res.Answer)
	if err != nil {
		return false, true
	}
	return d.save(host, a.Choice) == nil, true
}

// save keeps "allow for this session" as a grant and "always allow" as a Settings rule.
func (d *hostDecider) save(host string, choice decision.Choice) error {
	switch choice {
	case decision.AllowSession:
		return d.t.rt.opts.Store.AddHostGrant(d.t.sessionID, host)
	case decision.AllowAlways:
		_, err := d.t.rt.opts.Store.AddHostRule(host, "approval:"+d.t.sessionID)
		return err
	}
	return nil
}

func declined(host string) netproxy.Verdict {
	return netproxy.Verdict{Refusal: errs.New(netproxy.Declined, "Host", host)}
}
