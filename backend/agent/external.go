package agent

import (
	"context"
	"strings"
	"time"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/store"
)

// checkExternal refuses Chat for a session on an external agent, and Smart · Plan for one whose
// agent is known to have no plan mode; the runtime calls it after the one validator, for
// messages and switches alike.
func (r *Runtime) checkExternal(sessionID string, p mode.Preference) error {
	if p.Interaction != mode.Chat && p.Override != mode.Plan {
		return nil
	}
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil || sess.ExternalAgent == "" {
		return err
	}
	if p.Interaction == mode.Chat {
		return errs.New(external.ChatRefused, "Agent", sess.ExternalAgent)
	}
	if r.opts.External == nil {
		return nil
	}
	return refusePlan(r, external.Session{SessionID: sessionID, Command: sess.ExternalAgent}, p)
}

// CheckInput validates a message's mode as Send would, without sending it, so a caller can
// refuse Chat for an external agent before starting that agent.
func (r *Runtime) CheckInput(in Input) error {
	current, err := r.opts.Store.ModeInForce(in.SessionID)
	if err != nil {
		return err
	}
	fu, err := mode.ValidateFollowUp(current.Preference, in.Mode)
	if err != nil {
		return err
	}
	return r.checkExternal(in.SessionID, fu.Preference)
}

// runTurn drives a turn with the built-in loop, or on the session's external agent.
func (r *Runtime) runTurn(t *turn) (status, failure string) {
	sess, err := r.opts.Store.GetSession(t.sessionID)
	if err != nil {
		return t.fail(err)
	}
	if err := t.worktreeHere(); err != nil {
		return t.fail(err)
	}
	if sess.ExternalAgent == "" {
		return t.run()
	}
	return r.runExternal(t, sess)
}

// runExternal opens the agent, refuses Plan where the agent has no plan mode, then runs the
// turn's prompt and any message that steered the turn meanwhile, as further prompts.
func (r *Runtime) runExternal(t *turn, sess store.Session) (string, string) {
	command := sess.ExternalAgent
	if r.opts.External == nil {
		return t.fail(errs.New(external.AgentUnavailable, "Agent", command))
	}
	x := &extTurn{t: t, command: command, calls: map[string]*extCall{}, cleared: map[string]bool{}}
	in, err := r.opts.Store.GateInputsCached(&t.gate, t.sessionID)
	if err != nil {
		return t.fail(err)
	}
	confine, err := r.confinement(command, t.exec, in.Permission)
	if err != nil {
		return t.fail(err)
	}
	base, err := r.openExternal(t.ctx, sess, confine)
	if err != nil {
		return t.fail(err)
	}
	defer r.noteAgent(sess.ID, command, x)
	if err := refusePlan(r, base, t.pref); err != nil {
		return t.fail(err)
	}
	text := t.text // already in the log: the store records it with the turn
	for {
		notes, err := r.opts.Store.TakeAgentNotes(t.sessionID)
		if err != nil {
			return t.fail(err)
		}
		stop, err := r.opts.External.Prompt(t.ctx, external.Prompt{Session: base, TurnID: t.active.turnID,
			Text: text, ModeID: external.ModeID(t.pref), ExecutionMode: string(t.exec), Notes: notes, Recap: r.recap(t.sessionID)}, x)
		t.deltas.flush()
		if ferr := x.finish(err != nil || stop == "cancelled" || t.ctx.Err() != nil); ferr != nil && err == nil {
			err = ferr
		}
		switch {
		case t.ctx.Err() != nil || stop == "cancelled":
			return store.TurnCancelled, ""
		case err != nil:
			return t.fail(err)
		}
		if text = drainSteering(t.active); text == "" {
			return store.TurnDone, ""
		}
		if err := t.record(eventlog.UserMessage{TurnID: t.active.turnID, Text: text, Steer: true}); err != nil {
			return t.fail(err)
		}
	}
}

// noteAgent keeps what the turn showed of its agent — whether it asked before the calls it
// ran, which modes it publishes — for the runtime picker. A turn that ran no call of the
// agent's own says nothing about asking, so the last fact that did stands.
func (r *Runtime) noteAgent(sessionID, command string, x *extTurn) {
	x.mu.Lock()
	calls := 0
	for id := range x.calls {
		if !strings.HasPrefix(id, "fs-") && !strings.HasPrefix(id, "permission-") {
			calls++
		}
	}
	asked := x.asked
	x.mu.Unlock()
	if calls == 0 {
		return
	}
	f := store.AgentFact{Calls: calls, Asked: asked, At: time.Now().UTC()}
	if info, ok := r.opts.External.Info(sessionID); ok {
		f.PlanMode = info.PlanModeID
		for _, m := range info.Modes {
			f.Modes = append(f.Modes, store.AgentModeFact{ID: m.ID, Name: m.Name})
		}
	}
	_ = r.opts.Store.SetAgentFact(command, f) // a hint for the picker: the turn stands without it
}

// OpenExternal starts the agent of a session that runs on one, so it is ready when the person
// writes, not started by the first prompt. A session on the built-in runtime has nothing to do.
func (r *Runtime) OpenExternal(ctx context.Context, sessionID string) error {
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil || sess.ExternalAgent == "" {
		return err
	}
	if r.opts.External == nil {
		return errs.New(external.AgentUnavailable, "Agent", sess.ExternalAgent)
	}
	pref, err := r.opts.Store.ModeInForce(sessionID)
	if err != nil {
		return err
	}
	in, err := r.opts.Store.GateInputs(sessionID)
	if err != nil {
		return err
	}
	// Before a turn the mode may still be Smart's to choose: the agent starts under the mode
	// it would most likely get, and a turn that needs other terms restarts it.
	exec := mode.ModeExecute
	if pref.Preference.Override.IsSet() {
		exec = mode.ExecutionMode(pref.Preference.Override)
	}
	confine, err := r.confinement(sess.ExternalAgent, exec, in.Permission)
	if err != nil {
		return err
	}
	_, err = r.openExternal(ctx, sess, confine)
	return err
}

// confinement is how a session's agent process runs for a turn in exec under permission perm
// (agentTerms), with the network limited to the agent's reach.
func (r *Runtime) confinement(command string, exec mode.ExecutionMode, perm policy.PermissionMode) (*external.Confinement, error) {
	confined, writable, ok := agentTerms(sandbox.Status().Namespaces, exec, perm)
	switch {
	case !ok:
		return nil, errs.New(external.NeedsSandbox, "Agent", command)
	case !confined:
		return nil, nil
	}
	reach, err := r.AgentReach(command)
	if err != nil {
		return nil, err
	}
	return &external.Confinement{Writable: writable, Reach: reach, DataDir: r.opts.DataDir}, nil
}

// agentTerms says how an external agent's process may run: in the sandbox wherever the kernel
// has one, its workspace writable only where changes run unasked (Auto and Full, in a mode
// that may change files); without a sandbox only in Full access, unconfined. An unknown mode
// or permission gets the strictest terms.
func agentTerms(namespaces bool, exec mode.ExecutionMode, perm policy.PermissionMode) (confined, writable, ok bool) {
	if !namespaces {
		return false, false, perm == policy.Full
	}
	return true, exec.Profile().MayMutate && perm.EditsInsideRun(), true
}

// AgentReach is what the agent started by command may reach: what the person saved in
// Settings, else the defaults its name implies.
func (r *Runtime) AgentReach(command string) (external.Reach, error) {
	saved, ok, err := r.opts.Store.SavedAgentReach(command)
	if err != nil || !ok {
		return external.DefaultReach(command), err
	}
	return external.Reach(saved), nil
}

// openExternal starts the session's agent unless it runs, announcing it, and remembers the
// session id the agent gave, for session/load after a restart.
func (r *Runtime) openExternal(ctx context.Context, sess store.Session, confine *external.Confinement) (external.Session, error) {
	s := external.Session{SessionID: sess.ID, Command: sess.ExternalAgent, Workspace: sess.Workspace,
		StartTimeout: r.opts.Store.ExternalStartTimeout(), Confine: confine}
	if info, ok := r.opts.External.Info(sess.ID); ok {
		s.AgentSession = info.AgentSession
		return s, nil
	}
	stored, err := r.opts.Store.AgentSession(sess.ID, sess.ExternalAgent)
	if err != nil {
		return s, err
	}
	s.AgentSession = stored
	status := external.AgentStatus{SessionID: sess.ID, Agent: sess.ExternalAgent, Name: external.AgentName(sess.ExternalAgent),
		State: external.StatusStarting}
	r.opts.Publish(external.EventAgentStatus, status)
	info, err := r.opts.External.Open(ctx, s)
	if err != nil {
		status.State, status.Error = external.StatusFailed, r.errorText(err)
		r.opts.Publish(external.EventAgentStatus, status)
		return s, err
	}
	if info.AgentSession != "" && info.AgentSession != stored {
		if err := r.opts.Store.SetAgentSession(sess.ID, sess.ExternalAgent, info.AgentSession); err != nil {
			return s, err
		}
	}
	s.AgentSession = info.AgentSession
	status.State, status.Loaded = external.StatusReady, info.Loaded
	r.opts.Publish(external.EventAgentStatus, status)
	return s, nil
}

// refusePlan fails a Smart · Plan turn on an agent without a plan mode (ACP's modes or a value
// of its mode option): it would run as the agent's working mode.
func refusePlan(r *Runtime, s external.Session, p mode.Preference) error {
	if p.Override != mode.Plan {
		return nil
	}
	if info, ok := r.opts.External.Info(s.SessionID); ok && !info.PlanMode {
		return errs.New(external.NoPlanMode, "Agent", s.Command)
	}
	return nil
}

// recap is the conversation before the turn that is about to be sent, as plain text for an
// agent that starts afresh on a session with a history. It is read when needed only.
func (r *Runtime) recap(sessionID string) func() string {
	return func() string {
		log, err := r.opts.Store.Log(sessionID)
		if err != nil {
			return ""
		}
		cut := len(log)
		for cut > 0 && !isUserMessage(log[cut-1]) {
			cut--
		}
		if cut > 0 {
			cut-- // the turn's own message goes as the prompt
		}
		return external.Recap(buildHistory(log[:cut]))
	}
}

func isUserMessage(r eventlog.Record) bool {
	_, ok := r.Payload.(eventlog.UserMessage)
	return ok
}
