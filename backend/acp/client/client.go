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

	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
	"agentdesk/backend/session"
)

// ExternalAgentNotSaved refuses a command line that is not in the Settings list: a session runs
// only agents the person saved there.
const ExternalAgentNotSaved errs.Kind = "EXTERNAL_AGENT_NOT_SAVED"

// Timeouts of the conversation with an agent.
const (
	// StartTimeout bounds starting an agent: initialize and session/new.
	StartTimeout = 30 * time.Second
	// CancelGrace is how long a cancelled prompt waits for the agent's answer to session/cancel.
	CancelGrace = 3 * time.Second
)

// Pool keeps one running agent per AgentDesk session and runs prompts on it. It implements
// agent.ExternalAgents.
type Pool struct {
	log io.Writer // the agents' stderr and connection diagnostics; never stdout

	mu     sync.Mutex
	agents map[string]*conn
	closed bool
}

// NewPool returns a pool whose agents log to logw (nil discards).
func NewPool(logw io.Writer) *Pool {
	if logw == nil {
		logw = io.Discard
	}
	return &Pool{log: logw, agents: map[string]*conn{}}
}

// Prompt sends one prompt to the session's agent, starting the agent first when it is not
// running (again, after a crash). The agent's own modes follow ours where the ids match.
func (p *Pool) Prompt(ctx context.Context, pr agent.ExternalPrompt, h agent.ExternalHandler) (string, error) {
	c, err := p.get(ctx, pr)
	if err != nil {
		return "", err
	}
	c.setHandler(h)
	defer c.setHandler(nil)
	if err := c.applyMode(ctx, pr.ModeID); err != nil {
		return "", p.failed(pr.SessionID, c, err)
	}
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := c.conn.Prompt(c.ctx, acp.PromptRequest{SessionId: c.session, Prompt: []acp.ContentBlock{acp.TextBlock(pr.Text)}})
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
	c.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: c.session})
	select {
	case <-done:
	case <-time.After(CancelGrace):
	}
	return string(acp.StopReasonCancelled), nil
}

// get returns the session's running agent, or starts one.
func (p *Pool) get(ctx context.Context, pr agent.ExternalPrompt) (*conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errs.New(agent.ExternalAgentUnavailable, "Agent", pr.Command)
	}
	if c, ok := p.agents[pr.SessionID]; ok {
		if c.alive() && c.command == pr.Command {
			return c, nil
		}
		c.stop()
		delete(p.agents, pr.SessionID)
	}
	c, err := start(ctx, pr.Command, pr.Workspace, p.log)
	if err != nil {
		return nil, err
	}
	p.agents[pr.SessionID] = c
	return c, nil
}

// failed classifies a failed exchange and forgets an agent that is gone, so the next turn
// starts it afresh.
func (p *Pool) failed(sessionID string, c *conn, err error) error {
	out := c.failure(err)
	if !c.alive() || errs.KindOf(out) == agent.ExternalAgentProtocol {
		c.stop()
		p.mu.Lock()
		if p.agents[sessionID] == c {
			delete(p.agents, sessionID)
		}
		p.mu.Unlock()
	}
	return out
}

// Close stops every agent; later prompts are refused.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for id, c := range p.agents {
		c.stop()
		delete(p.agents, id)
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
		return session.View{}, errs.New(agent.ChatWithExternalAgent, "Agent", command)
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
