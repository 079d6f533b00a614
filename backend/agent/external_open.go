package agent

import (
	"agentdesk/backend/eventlog"
	"context"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/shell"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// ExternalAgentNoPlan refuses Smart · Plan for an agent that has no plan mode: AgentDesk would
// have nothing to hold it to planning with.
const ExternalAgentNoPlan errs.Kind = "EXTERNAL_AGENT_NO_PLAN"

// EventAgentStatus reports an external agent starting, ready or failed to start, so the
// person sees "Starting opencode…" rather than a silent wait.
const EventAgentStatus = "agent.status"

// States of agent.status.
const (
	AgentStarting = "starting"
	AgentReady    = "ready"
	AgentFailed   = "failed"
)

// AgentStatus is the payload of agent.status.
type AgentStatus struct {
	SessionID string `json:"sessionId"`
	Agent     string `json:"agent"` // the command line
	Name      string `json:"name"`  // what to call it: "opencode"
	State     string `json:"state"`
	Loaded    bool   `json:"loaded,omitempty"` // ready with its own earlier session
	Error     string `json:"error,omitempty"`
}

// OpenExternal starts the agent of a session that runs on one, so it is ready when the person
// writes, not started by the first prompt. A session on the built-in runtime has nothing to do.
func (r *Runtime) OpenExternal(ctx context.Context, sessionID string) error {
	sess, err := r.opts.Store.GetSession(sessionID)
	if err != nil || sess.ExternalAgent == "" {
		return err
	}
	if r.opts.External == nil {
		return errs.New(ExternalAgentUnavailable, "Agent", sess.ExternalAgent)
	}
	_, err = r.openExternal(ctx, sess)
	return err
}

// openExternal starts the session's agent unless it runs, announcing it, and remembers the
// session id the agent gave, for session/load after a restart.
func (r *Runtime) openExternal(ctx context.Context, sess store.Session) (ExternalSession, error) {
	s := ExternalSession{SessionID: sess.ID, Command: sess.ExternalAgent, Workspace: sess.Workspace,
		StartTimeout: r.opts.Store.ExternalStartTimeout()}
	if info, ok := r.opts.External.Info(sess.ID); ok {
		s.AgentSession = info.AgentSession
		return s, nil
	}
	stored, err := r.opts.Store.AgentSession(sess.ID, sess.ExternalAgent)
	if err != nil {
		return s, err
	}
	s.AgentSession = stored
	status := AgentStatus{SessionID: sess.ID, Agent: sess.ExternalAgent, Name: AgentName(sess.ExternalAgent), State: AgentStarting}
	r.opts.Publish(EventAgentStatus, status)
	info, err := r.opts.External.Open(ctx, s)
	if err != nil {
		status.State, status.Error = AgentFailed, r.errorText(err)
		r.opts.Publish(EventAgentStatus, status)
		return s, err
	}
	if info.AgentSession != "" && info.AgentSession != stored {
		if err := r.opts.Store.SetAgentSession(sess.ID, sess.ExternalAgent, info.AgentSession); err != nil {
			return s, err
		}
	}
	s.AgentSession = info.AgentSession
	status.State, status.Loaded = AgentReady, info.Loaded
	r.opts.Publish(EventAgentStatus, status)
	return s, nil
}

// refusePlan fails a Smart · Plan turn on an agent without a plan mode (ACP's modes or a value
// of its mode option): it would run as the agent's working mode.
func refusePlan(r *Runtime, s ExternalSession, p mode.Preference) error {
	if p.Override != mode.Plan {
		return nil
	}
	if info, ok := r.opts.External.Info(s.SessionID); ok && !info.PlanMode {
		return errs.New(ExternalAgentNoPlan, "Agent", s.Command)
	}
	return nil
}

// AgentName is what to call an agent: the program of its command line, past launchers such as
// npx or node and variable assignments ("npx -y opencode-ai acp" is "opencode-ai").
func AgentName(command string) string {
	args, err := shell.Fields(command, func(string) string { return "" })
	if err != nil || len(args) == 0 {
		return strings.TrimSpace(command)
	}
	launchers := map[string]bool{"env": true, "npx": true, "bunx": true, "node": true, "bun": true, "deno": true,
		"uvx": true, "python": true, "python3": true, "pnpm": true, "dlx": true, "exec": true, "run": true}
	for _, a := range args {
		base := filepath.Base(a)
		if strings.HasPrefix(a, "-") || strings.Contains(a, "=") || launchers[base] {
			continue
		}
		return strings.TrimSuffix(base, filepath.Ext(base))
	}
	return filepath.Base(args[0])
}

// recapLen bounds the recap an agent starting afresh is given; the end is kept.
const recapLen = 24000

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
		return recapText(buildHistory(log[:cut]))
	}
}

func isUserMessage(r eventlog.Record) bool {
	_, ok := r.Payload.(eventlog.UserMessage)
	return ok
}

// recapText renders messages as a transcript the agent reads before the person's prompt.
func recapText(msgs []provider.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Text != "" {
			who := "User"
			if m.Role == provider.RoleAssistant {
				who = "Assistant"
			}
			b.WriteString(who + ": " + m.Text + "\n\n")
		}
		for _, c := range m.ToolCalls {
			b.WriteString("Tool call " + c.Name + ": " + string(c.Input) + "\n")
		}
		for _, res := range m.ToolResults {
			status := "result"
			if res.IsError {
				status = "error"
			}
			b.WriteString("Tool " + status + " (" + res.Name + "): " + clipMiddle(res.Content, 400) + "\n\n")
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return ""
	}
	if len(text) > recapLen {
		start := len(text) - recapLen
		for start < len(text) && !utf8.RuneStart(text[start]) {
			start++
		}
		text = "…" + text[start:]
	}
	return "[AgentDesk] This conversation began earlier and your own session of it could not be restored. " +
		"Here is what happened so far, from AgentDesk's log:\n\n" + text + "\n\n[End of the earlier conversation. The person's new message follows.]"
}

func clipMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n/2]) + " … " + string(r[len(r)-n/2:])
}
