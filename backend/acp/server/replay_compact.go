package server

import (
	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/eventlog"
)

// A compaction is the runtime's own bookkeeping, not the agent's words: session/load replays
// it, and a running prompt reports it, as an agent thought saying what the model now reads in
// place of the earlier entries (which the replay still shows above it).

func (r *replayer) ContextCompacted(c eventlog.ContextCompacted) {
	r.out = append(r.out, r.s.compacted(c.From, c.Through, c.Summary))
}

func (s *Server) compacted(from, through int64, summary string) acp.SessionUpdate {
	return acp.UpdateAgentThoughtText(s.t("acp.compacted", map[string]any{"From": from, "Through": through, "Summary": summary}))
}

func (s *Server) onCompacted(v agent.CompactedView) {
	s.notify(v.SessionID, s.compacted(v.From, v.Through, v.Summary))
}
