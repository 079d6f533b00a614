package cli

import (
	"io"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// headless is the runtime of a command without a window (run, acp): the bus, the decision
// registry, external agents and the agent runtime over an open store. It does not mark other
// processes' turns interrupted: only the app that owns the data folder does that at start.
type headless struct {
	bus  *bus.Bus
	reg  *decision.Registry
	pool *client.Pool
	rt   *agent.Runtime
}

func (c *Context) newHeadless(st *store.Store, prov agent.ProviderSource, logw io.Writer) *headless {
	h := &headless{bus: bus.New(), pool: client.NewPool(logw)}
	h.reg = decision.New(st, h.bus.Publish, decision.Options{Timeout: decision.TimeoutSetting(st)})
	h.rt = agent.New(agent.Options{Store: st, Publish: h.bus.Publish, Decisions: h.reg, Tools: tool.NewRegistry(),
		Provider: prov, Messages: c.msgs, DataDir: c.DataDir, External: h.pool})
	return h
}

func (h *headless) Close() { h.pool.Close() }
