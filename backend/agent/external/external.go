// Package external is the vocabulary between AgentDesk's runtime and the external ACP agents
// it starts (opencode, codex-acp, …): what a prompt, a tool call and a permission request are,
// and how the agent's reports translate into what AgentDesk shows, records and gates.
// backend/acp/client speaks ACP in these terms; the runtime in backend/agent runs the turn.
// It imports neither, so both can depend on it.
package external

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"mvdan.cc/sh/v3/shell"

	"agentdesk/backend/errs"
)

// Error kinds of sessions that run on an external ACP agent (R-ACP-2).
const (
	// ChatRefused refuses Chat for an external agent: AgentDesk cannot enforce that agent's
	// no-tool contract (R-MODE-3).
	ChatRefused errs.Kind = "CHAT_WITH_EXTERNAL_AGENT"
	// NoPlanMode refuses Smart · Plan for an agent that has no plan mode: AgentDesk would have
	// nothing to hold it to planning with.
	NoPlanMode errs.Kind = "EXTERNAL_AGENT_NO_PLAN"
	// AgentFailed ends a turn whose agent could not start, died or broke off.
	AgentFailed errs.Kind = "EXTERNAL_AGENT_FAILED"
	// AgentProtocol ends a turn whose agent wrote something that is not ACP.
	AgentProtocol errs.Kind = "EXTERNAL_AGENT_PROTOCOL"
	// AgentUnavailable is a session on an external agent in a process that cannot run one.
	AgentUnavailable errs.Kind = "EXTERNAL_AGENT_UNAVAILABLE"
	// CallDeclined is a file-system call of an external agent that the gate or the person
	// declined, or that failed; the agent is told the reason.
	CallDeclined errs.Kind = "EXTERNAL_CALL_DECLINED"
)

// Verdict marks a tool call that an external agent made: it passed that agent's own
// permission flow, not our gate, and its approvals reached the person as decisions.
const Verdict = "external"

// Agents runs prompts on external ACP agents; backend/acp/client implements it. The runtime
// keeps the turn itself — queue, decisions, events and turn records — exactly as for the
// built-in loop, and hands only the prompt to the agent.
type Agents interface {
	// Open starts the session's agent when it is not running: initialize, then session/load of
	// the agent's own earlier session when it has one, else session/new.
	Open(ctx context.Context, s Session) (Info, error)
	// Prompt sends one prompt to the session's agent (starting it when needed, as Open does)
	// and reports what the agent does to h until the agent answers. The stop reason is ACP's
	// ("end_turn", "cancelled", …). When ctx ends, the agent is told to cancel.
	Prompt(ctx context.Context, p Prompt, h Handler) (stopReason string, err error)
	// Info reports what the session's running agent offers; ok is false when none runs.
	Info(sessionID string) (info Info, ok bool)
}

// Session names the agent of one AgentDesk session and how to start it.
type Session struct {
	SessionID string
	Command   string // the agent's command line, as saved in Settings
	Workspace string
	// AgentSession is the id the agent gave this session when it last ran ("" for none): a
	// restarted agent is asked to load it, so it keeps its memory.
	AgentSession string
	// StartTimeout bounds initialize and session/new or session/load (a Setting).
	StartTimeout time.Duration
	// Confine holds the agent's process in the sandbox; nil runs it unconfined (Full access
	// where the kernel offers no sandbox). An agent running under other terms is restarted.
	Confine *Confinement
}

// Info is what a started agent offers.
type Info struct {
	AgentSession string // the agent's id of the session now in force
	Loaded       bool   // the agent loaded its earlier session
	PlanMode     bool   // the agent has a mode for planning (a mode, or a value of its mode option)
	// Modes are the modes it publishes (ACP's modes or the values of its mode option), and
	// PlanModeID the one Smart · Plan maps to ("" for none).
	Modes      []AgentMode
	PlanModeID string
}

// Prompt is one prompt for an external agent.
type Prompt struct {
	Session
	TurnID string
	Text   string
	ModeID string // the selector id in force (see ModeID)
	// ExecutionMode is the turn's resolved execution mode: the agent is put in its plan mode
	// for the read-only ones and in its working mode for the others.
	ExecutionMode string
	// Notes are what AgentDesk has to tell the agent before the person's text: why calls it
	// asked for since its last prompt were declined (ACP's permission answer has no reason).
	Notes []string
	// Recap is the conversation before this turn, for an agent that starts afresh on a session
	// with a history (its own session could not be loaded); "" when there is none.
	Recap func() string
}

// Handler receives what the external agent does during a prompt.
type Handler interface {
	Text(chunk string)
	ToolCall(c ToolCall)
	ToolUpdate(c ToolCall)
	// Permission puts the request through AgentDesk's gate, and to the person through the
	// decision registry where the gate asks.
	Permission(ctx context.Context, p Permission) (Answer, error)
	// ModeChanged reports a switch the agent made itself, as one of our selector ids.
	ModeChanged(id string)
	// ReadTextFile and WriteTextFile are ACP's client file system, through the gate and the
	// file tools. Line is 1-based; 0 and limit 0 mean from the start and to the end.
	ReadTextFile(ctx context.Context, path string, line, limit int) (string, error)
	WriteTextFile(ctx context.Context, path, content string) error
	// RunCommand is ACP's terminal/create: the command line is judged and run as AgentDesk's own
	// shell commands are, its output streaming to output; it returns the exit code (-1 for
	// none), and an error for a refusal or a failure to run.
	RunCommand(ctx context.Context, command string, output func(string)) (exitCode int, err error)
}

// ToolCall is a tool call the agent reports; empty fields were not reported.
type ToolCall struct {
	ID        string
	Title     string
	Kind      string // ACP: read, edit, delete, move, search, execute, think, fetch, switch_mode, other
	Status    string // ACP: pending, in_progress, completed, failed
	Input     json.RawMessage
	Output    string
	Locations []string // the paths it touches, absolute
	Diffs     []Diff   // the changes it makes to files
}

// Diff is one file change a tool call reports.
type Diff struct {
	Path    string
	OldText *string // nil for a new file
	NewText string
}

// Option is one answer the agent offers in a permission request.
type Option struct {
	ID   string
	Kind string // ACP: allow_once, allow_always, reject_once, reject_always
	Name string
}

// Permission is the agent asking before a tool call.
type Permission struct {
	Call    ToolCall
	Options []Option
}

// Answer is the answer to a permission request: the agent's option ("" means the request
// ended unanswered, ACP's cancelled outcome) and, for a decline, why.
type Answer struct {
	OptionID string
	Reason   string
}

// EventAgentStatus reports an external agent starting, ready or failed to start, so the
// person sees "Starting opencode…" rather than a silent wait.
const EventAgentStatus = "agent.status"

// States of agent.status.
const (
	StatusStarting = "starting"
	StatusReady    = "ready"
	StatusFailed   = "failed"
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
