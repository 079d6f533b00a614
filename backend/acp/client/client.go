// Package client runs external ACP agents (any command that speaks ACP over stdio, such as
// `gemini --experimental-acp`) as the runtime of an AgentDesk session (R-ACP-2). AgentDesk is
// the ACP client here: it starts the agent, sends the person's prompts, shows what the agent
// streams, and turns its permission requests into approval decisions of the one registry. The
// turn around each prompt — queue, decisions, events, turn records — stays the runtime's own
// (backend/agent, external*.go).
package client

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/session"
)

// ExternalAgentNotSaved refuses a command line that is not in the Settings list: a session runs
// only agents the person saved there.
const ExternalAgentNotSaved errs.Kind = "EXTERNAL_AGENT_NOT_SAVED"

// CancelGrace is how long a cancelled prompt waits for the agent's answer to session/cancel.
const CancelGrace = 3 * time.Second

// Pool keeps one running agent per AgentDesk session and runs prompts on it. It implements
// external.Agents.
type Pool struct {
	log io.Writer // the agents' stderr and connection diagnostics; never stdout

	mu     sync.Mutex
	slots  map[string]*slot
	closed bool
}

// slot is one session's place in the pool. Starting its agent holds only the slot, so a slow
// agent never keeps another session's agent from starting.
type slot struct {
	starting sync.Mutex
	c        *conn // guarded by Pool.mu
}

// NewPool returns a pool whose agents log to logw (nil discards).
func NewPool(logw io.Writer) *Pool {
	if logw == nil {
		logw = io.Discard
	}
	return &Pool{log: logw, slots: map[string]*slot{}}
}

// Open starts the session's agent unless it runs (again, after a crash) and reports what it
// offers.
func (p *Pool) Open(ctx context.Context, s external.Session) (external.Info, error) {
	c, err := p.open(ctx, s)
	if err != nil {
		return external.Info{}, err
	}
	return c.info(), nil
}

// Info reports what the session's running agent offers.
func (p *Pool) Info(sessionID string) (external.Info, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	sl := p.slots[sessionID]
	if sl == nil || sl.c == nil || !sl.c.alive() {
		return external.Info{}, false
	}
	return sl.c.info(), true
}

// Prompt sends one prompt to the session's agent, starting the agent first when it is not
// running. The agent is put in the mode the turn runs as; what AgentDesk has to tell it (the
// reasons of declined calls, the conversation so far when it started afresh) goes first.
func (p *Pool) Prompt(ctx context.Context, pr external.Prompt, h external.Handler) (string, error) {
	c, err := p.open(ctx, pr.Session)
	if err != nil {
		return "", err
	}
	c.setHandler(h)
	defer c.setHandler(nil)
	if err := c.applyMode(ctx, pr.ModeID, pr.ExecutionMode); err != nil {
		return "", p.failed(pr.SessionID, c, err)
	}
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	blocks, session := c.promptBlocks(pr), c.sessionID()
	go func() {
		resp, err := c.conn.Prompt(c.ctx, acp.PromptRequest{SessionId: session, Prompt: blocks})
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return "", p.failed(pr.SessionID, c, r.err)
		}
		return c.stopReason(r.resp)
	case <-ctx.Done():
	}
	// ACP's cancel: tell the agent, then wait a little for its answer to the prompt.
	c.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: session})
	select {
	case <-done:
	case <-time.After(CancelGrace):
	}
	return string(acp.StopReasonCancelled), nil
}

// open returns the session's running agent, or starts one.
func (p *Pool) open(ctx context.Context, s external.Session) (*conn, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errs.New(external.AgentUnavailable, "Agent", s.Command)
	}
	sl := p.slots[s.SessionID]
	if sl == nil {
		sl = &slot{}
		p.slots[s.SessionID] = sl
	}
	p.mu.Unlock()
	sl.starting.Lock()
	defer sl.starting.Unlock()
	p.mu.Lock()
	old := sl.c
	p.mu.Unlock()
	if old != nil && old.alive() && old.command == s.Command && old.confine == confineKey(s.Confine) {
		return old, nil
	}
	if old != nil {
		old.stop()
	}
	c, err := start(ctx, s, p.log)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		sl.c = nil
		return nil, err
	}
	if p.closed {
		c.stop()
		return nil, errs.New(external.AgentUnavailable, "Agent", s.Command)
	}
	sl.c = c
	return c, nil
}

// failed classifies a failed exchange and forgets an agent that is gone, so the next turn
// starts it afresh.
func (p *Pool) failed(sessionID string, c *conn, err error) error {
	out := c.failure(err)
	if !c.alive() || errs.KindOf(out) == external.AgentProtocol {
		c.stop()
		p.mu.Lock()
		if sl := p.slots[sessionID]; sl != nil && sl.c == c {
			sl.c = nil
		}
		p.mu.Unlock()
	}
	return out
}

// Close stops every agent (its whole process group) and waits briefly for each to be gone;
// later prompts are refused.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	stopped := make([]*conn, 0, len(p.slots))
	for id, sl := range p.slots {
		if sl.c != nil {
			sl.c.stop()
			stopped = append(stopped, sl.c)
		}
		delete(p.slots, id)
	}
	p.mu.Unlock()
	deadline := time.After(CancelGrace)
	for _, c := range stopped {
		select {
		case <-c.exited:
		case <-deadline:
			return
		}
	}
}

// CreateSession creates a session that runs on the external agent started by command, which
// must be one of the command lines saved in Settings. Chat is refused: AgentDesk cannot
// enforce an external agent's no-tool contract.
func CreateSession(svc *session.Service, in session.CreateInput, command string) (session.View, error) {
	command = strings.TrimSpace(command)
	saved, err := svc.Store.ExternalAgents()
	if err != nil {
		return session.View{}, err
	}
	if !contains(saved, command) {
		return session.View{}, errs.New(ExternalAgentNotSaved, "Agent", command)
	}
	if in.Mode.InteractionMode != nil && *in.Mode.InteractionMode == "chat" {
		return session.View{}, errs.New(external.ChatRefused, "Agent", command)
	}
	in.ExternalAgent = command
	return svc.Create(in) // one unit of work: the session never exists without its agent
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
