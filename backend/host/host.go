// Package host is the one composition root of a running AgentDesk: the window, `serve`, `run`
// and `acp` all build their runtime here, over an open store, and end it with Close. Owning the
// parts in one place is what lets Close stop them in the only safe order: turns first (they
// write to the store), then the external agents and MCP servers they talked to, then the
// subscribers, and the store last.
package host

import (
	"context"
	"errors"
	"io"
	"time"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mcp"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// Options wire a Host.
type Options struct {
	Provider agent.ProviderSource
	Messages *i18n.Bundle
	DataDir  string
	// Log receives the external agents' stderr and diagnostics; nil discards.
	Log io.Writer
	// Timeout is the decision timeout; nil reads the decision-timeout setting at every ask.
	Timeout func() time.Duration
	// Bus is the bus to publish on; nil makes a new one. Close closes it either way.
	Bus *bus.Bus
	// Publish, when set, is what the runtime and the registry publish through instead of
	// Bus.Publish: a caller that derives state from the events (the app's live session states)
	// sees each before it goes out, and publishes it on Bus itself.
	Publish func(name string, data any)
	// Recover takes up the turns of processes that are gone which waited on the person, and
	// marks the rest of their turns and decisions interrupted, before anything is asked. Only
	// the app that shows them (the window, serve) does this for every session.
	Recover bool
	// Getenv expands ${VAR} in MCP server configurations; nil reads the process environment.
	Getenv func(string) string
	// Version is AgentDesk's, sent to MCP servers as the client's.
	Version string
}

// Host owns a running AgentDesk's parts.
type Host struct {
	Store     *store.Store
	Bus       *bus.Bus
	Decisions *decision.Registry
	Runtime   *agent.Runtime
	External  *client.Pool
	MCP       *mcp.Host
	// Checkpoints snapshot the workspaces: one store per composition root, nil when it could
	// not open (CheckpointErr says why; turns then run without checkpoints rather than not at
	// all). Review restores and reviews over it.
	Checkpoints   *checkpoint.Store
	CheckpointErr error
	Review        *rewind.Service
}

// New builds the parts over st. From then on the host owns st: Close closes it. When New
// fails, st is still the caller's.
func New(st *store.Store, opts Options) (*Host, error) {
	timeout := opts.Timeout
	if timeout == nil {
		timeout = decision.TimeoutSetting(st)
	}
	h := &Host{Store: st, Bus: opts.Bus, External: client.NewPool(opts.Log)}
	if h.Bus == nil {
		h.Bus = bus.New()
	}
	publish := opts.Publish
	if publish == nil {
		publish = h.Bus.Publish
	}
	h.Decisions = decision.New(st, publish, decision.Options{Timeout: timeout})
	// mcp.changed is for the windows only: it is no session's state.
	h.MCP = mcp.NewHost(st, mcp.Options{DataDir: opts.DataDir, Getenv: opts.Getenv, LogDir: mcp.LogDir(opts.DataDir),
		Publish: h.Bus.Publish, Version: opts.Version})
	if opts.DataDir != "" {
		h.Checkpoints, h.CheckpointErr = rewind.Open(st, opts.DataDir)
	}
	h.Runtime = agent.New(agent.Options{Store: st, Publish: publish, Decisions: h.Decisions,
		Tools: tool.NewRegistry(), Provider: opts.Provider, Messages: opts.Messages, DataDir: opts.DataDir,
		External: h.External, MCP: h.MCP, Checkpoints: h.Checkpoints})
	h.Review = &rewind.Service{Store: st, Checkpoints: h.Checkpoints, Publish: publish,
		Running: func(id string) bool { _, ok := h.Runtime.Running(id); return ok }}
	if opts.Recover {
		if err := h.recover(); err != nil {
			h.closeParts()
			return nil, err
		}
	}
	return h, nil
}

// recover takes up what processes that are gone left behind: turns waiting on a decision come
// back waiting on it; every other turn and decision of theirs becomes interrupted. Adopting comes
// first, so the interrupting leaves the adopted alone.
func (h *Host) recover() error {
	stranded, err := h.Runtime.Adopt("")
	if err != nil {
		return err
	}
	if _, _, err := h.Decisions.Recover(); err != nil {
		return err
	}
	return h.Runtime.TakeUp(stranded)
}

// ErrBusy is Close's answer when turns were still running at its deadline: the store was left
// open under them rather than closed under their writes (the process exit closes it).
var ErrBusy = errors.New("host: turns still running at the close deadline; the store was left open")

// Close cancels every running turn and waits for it to end, stops the external agents and the
// MCP servers (their whole process groups), closes the checkpoint store, lets the subscribers
// handle what is queued, then closes the store. Everything committed is kept; pending decisions
// end as cancelled.
func (h *Host) Close(ctx context.Context) error {
	if err := h.Runtime.Shutdown(ctx); err != nil {
		h.External.Close()
		return errors.Join(ErrBusy, err, h.MCP.Close(ctx))
	}
	return errors.Join(h.closeRest(ctx), h.Store.Close())
}

// closeRest stops what the runtime talked to, once it has stopped: the external agents, the MCP
// servers, the checkpoint store and the subscribers; everything but the store.
func (h *Host) closeRest(ctx context.Context) error {
	h.External.Close()
	mcpErr := h.MCP.Close(ctx)
	var cpErr error
	if h.Checkpoints != nil {
		cpErr = h.Checkpoints.Close()
	}
	return errors.Join(mcpErr, cpErr, h.Bus.Close(ctx))
}

// closeParts undoes a New that failed after building its parts; the store stays the caller's.
func (h *Host) closeParts() {
	ctx := context.Background()
	h.Runtime.Shutdown(ctx)
	h.closeRest(ctx)
}
