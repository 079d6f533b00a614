package mcp

import (
	"sync"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// Servers an editor passes with an ACP session (session/new's mcpServers) run on the same host
// as the configured ones, behind the same gate, for that session only. The editor's
// configuration is the person's choice, so the tools listed first are pinned as approved; a tool
// that changes or appears later is off for the rest of the session (there is no Settings entry
// to approve it from).

// SetSessionServers gives a session the servers its editor passed, replacing earlier ones. A
// configuration that does not validate is left out, with its error.
func (h *Host) SetSessionServers(sessionID string, cfgs []Config) []error {
	var errs []error
	var servers []server
	for _, cfg := range cfgs {
		cfg.Workspace = ""
		if err := cfg.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		servers = append(servers, server{id: "session:" + sessionID + ":" + cfg.Name, cfg: cfg, enabled: true, pins: &memPins{}})
	}
	h.mu.Lock()
	old := h.sessions[sessionID]
	h.sessions[sessionID] = servers
	h.mu.Unlock()
	for _, s := range old {
		h.forget(s.id)
	}
	return errs
}

// memPins are the pins of a session's servers, in memory.
type memPins struct {
	mu    sync.Mutex
	tools map[string]store.MCPTool
}

func (p *memPins) see(defs map[string]string) ([]store.MCPTool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	first := p.tools == nil
	if first {
		p.tools = map[string]store.MCPTool{}
	}
	now := time.Now().UTC()
	for name, def := range defs {
		t, ok := p.tools[name]
		if !ok {
			t = store.MCPTool{Name: name}
			if first {
				t.Pinned, t.ApprovedAt = def, &now
			}
		}
		t.Seen, t.SeenAt = def, now
		p.tools[name] = t
	}
	return p.list(), nil
}

func (p *memPins) rows() ([]store.MCPTool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.list(), nil
}

func (p *memPins) approve(name, def string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.tools[name]
	if !ok || t.Seen == "" || t.Seen != def {
		return errs.New(errs.NotFound, "ID", name)
	}
	now := time.Now().UTC()
	t.Pinned, t.ApprovedAt, t.Disabled = def, &now, false
	p.tools[name] = t
	return nil
}

func (p *memPins) list() []store.MCPTool {
	out := make([]store.MCPTool, 0, len(p.tools))
	for _, t := range p.tools {
		out = append(out, t)
	}
	return out
}
