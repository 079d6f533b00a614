package agent

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/policy"
	"agentdesk/backend/provider"
	"agentdesk/backend/tool"
)

// DirectResult is what RunDirect returns and the payload of tool.direct.done; the log keeps an
// eventlog.DirectTool.
type DirectResult struct {
	SessionID string          `json:"sessionId"`
	CallID    string          `json:"callId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Output    string          `json:"output"`
	IsError   bool            `json:"isError"`
	Code      string          `json:"code,omitempty"`
	// NeedsApproval: the gate asks for this call under the session's permission, so nothing
	// ran; the form shows ReasonKey and Summary and runs it again only when the person
	// confirms (Approved in the request).
	NeedsApproval bool           `json:"needsApproval,omitempty"`
	ReasonKey     string         `json:"reasonKey,omitempty"`
	ReasonArgs    map[string]any `json:"reasonArgs,omitempty"`
	Summary       string         `json:"summary,omitempty"`
	// Display says Output to the person (see display.Message).
	Display *display.Message `json:"display,omitempty"`
}

// RunDirect runs a tool the person invoked themselves (R-DEC-1) under the session's own
// permission: where the gate allows, it runs; where it asks, nothing runs and the result says
// so, until the person confirms inline (approved); a deny holds either way.
func (r *Runtime) RunDirect(ctx context.Context, sessionID, name string, input json.RawMessage, approved bool) (DirectResult, error) {
	ctx, done, err := r.beginDirect(ctx)
	if err != nil {
		return DirectResult{}, err
	}
	defer done()
	state, err := r.opts.Store.ModeInForce(sessionID)
	if err != nil {
		return DirectResult{}, err
	}
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil {
		return DirectResult{}, err
	}
	t := &turn{rt: r, ctx: ctx, active: &active{turnID: ""}, sessionID: sessionID, workspace: sess.Workspace,
		pref: state.Preference, exec: state.Preference.Unrouted(), deltas: newCoalescer(r.opts.Publish)}
	defer t.deltas.close()
	g := &gated{call: provider.ToolCall{ID: "direct_" + uuid.NewString(), Name: name, Input: input}}
	out := DirectResult{SessionID: sessionID, CallID: g.call.ID, Name: name, Input: input}
	err = t.decideDirect(g)
	if err == nil && g.verdict.Decision == policy.DecideAsk && !approved {
		out.NeedsApproval, out.Code, out.Summary = true, string(g.verdict.Code), g.desc.Summary
		out.ReasonKey, out.ReasonArgs = g.verdict.ReasonKey, g.verdict.ReasonArgs
		return out, nil
	}
	g.escalated = g.verdict.Decision == policy.DecideAsk && g.desc.Gate.Escalation != policy.NoEscalation
	if err != nil {
		out.Output, out.IsError, out.Code, out.Display = r.errorText(err), true, string(errs.KindOf(err)), displayOf(err)
	} else if res, err := t.execute(g); err != nil {
		out.Output, out.IsError, out.Display = r.errorText(err), true, displayOf(err)
	} else {
		out.Output, out.IsError, out.Display = res.Output, res.IsError, res.Display
	}
	if _, err := r.opts.Store.AppendStep(sessionID, eventlog.DirectTool{CallID: out.CallID, Name: out.Name,
		Input: out.Input, Output: out.Output, IsError: out.IsError, Code: out.Code, Display: out.Display}); err != nil {
		return out, err
	}
	r.opts.Publish(EventDirectDone, out)
	return out, nil
}

// beginDirect counts a direct run for Shutdown and ties its context to the runtime's.
func (r *Runtime) beginDirect(ctx context.Context) (context.Context, func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, nil, errs.New(ShuttingDown)
	}
	r.direct.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(r.base, cancel)
	return ctx, func() {
		stop()
		cancel()
		r.direct.Done()
	}, nil
}

// decideDirect applies the gate as for the agent's own calls, under the session's permission;
// only a deny is an error here, an ask is confirmed inline by the person.
func (t *turn) decideDirect(g *gated) error {
	var err error
	if g.tool, err = t.lookup(g.call.Name); err != nil {
		return err
	}
	if g.desc, err = g.tool.Describe(g.call.Input); err != nil {
		return err
	}
	if g.verdict, err = t.evaluate(g); err != nil {
		return err
	}
	return g.verdict.Err()
}

// ToolDefs lists the tools the person may run directly in the session's mode, with the schemas
// the fn-form is built from.
func (r *Runtime) ToolDefs(sessionID string) ([]tool.Def, error) {
	state, err := r.opts.Store.ModeInForce(sessionID)
	if err != nil {
		return nil, err
	}
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil {
		return nil, err
	}
	// The person, not the router, chooses a direct action.
	t := &turn{rt: r, ctx: context.Background(), active: &active{}, sessionID: sessionID, workspace: sess.Workspace,
		exec: state.Preference.Unrouted()}
	return append(r.opts.Tools.Defs(t.profile().Tools), t.mcpDefs()...), nil
}

// Unqueue cancels the queued switch at index i before it applies.
func (r *Runtime) Unqueue(sessionID string, i int) error {
	leave, err := r.enter(sessionID)
	if err != nil {
		return err
	}
	defer leave()
	q, err := r.opts.Store.UnqueueSwitch(sessionID, i)
	if err != nil {
		return err
	}
	r.publishQueue(sessionID, q)
	return nil
}
