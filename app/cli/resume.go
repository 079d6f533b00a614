package cli

import (
	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
	"agentdesk/backend/host"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// NothingToResume: the session has no turn that a stopped process left waiting on the person
// (none waits, or the AgentDesk that runs it still does).
const NothingToResume errs.Kind = "NOTHING_TO_RESUME"

// runResume is `agentdesk resume SESSION`: the session's turn that AgentDesk stopped (a quit, a
// crash) while it waited on the person comes back, its decision is asked again on the terminal,
// and the turn goes on to its end, as `run` would have.
func runResume(c *Context, args []string) int {
	fs := c.flags("resume")
	providerFlags(c, fs)
	jsonFlag(c, fs)
	pos, code, ok := c.parseArgs(fs, args, []string{"SESSION"})
	if !ok {
		return code
	}
	st, err := store.Open(c.DataDir)
	if err != nil {
		return c.exitFor(err)
	}
	prov, err := c.runProvider(fs, st)
	if err == nil {
		_, err = (&session.Service{Store: st}).View(pos[0])
	}
	if err != nil {
		st.Close()
		return c.exitFor(err)
	}
	return c.withHost(st, prov, c.Stderr, func(h *host.Host) int {
		return c.runTurn(h, fs, agent.Input{SessionID: pos[0]})
	})
}
