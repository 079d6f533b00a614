package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
)

// eventQueue is the server's bus queue: onEvent only queues, so it falls behind only when the
// whole process does.
const eventQueue = 4096

// onEvent translates the runtime's broadcasts for the client's sessions into session/update
// notifications. It runs on the server's own bus subscription, and only queues.
func (s *Server) onEvent(e bus.Event) {
	if e.Name == bus.EventOverflow {
		fmt.Fprintln(s.opts.Log, "agentdesk acp: events overflowed; session updates were lost")
		return
	}
	id := sessionOf(e.Data)
	if id == "" || !s.isAttached(id) {
		return
	}
	switch e.Name {
	case agent.EventTurnDelta:
		d := e.Data.(agent.Delta)
		s.notify(id, acp.UpdateAgentMessageText(d.Text))
	case agent.EventToolCall:
		s.onToolCall(e.Data.(agent.ToolCallView))
	case agent.EventToolOutput:
		d := e.Data.(agent.Delta)
		s.mu.Lock()
		s.outputs[d.CallID] += d.Text
		out := s.outputs[d.CallID]
		s.mu.Unlock()
		s.notify(id, acp.UpdateToolCall(acp.ToolCallId(d.CallID), acp.WithUpdateStatus(acp.ToolCallStatusInProgress),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(out))})))
	case agent.EventToolDone:
		d := e.Data.(agent.ToolDoneView)
		s.mu.Lock()
		delete(s.outputs, d.CallID)
		delete(s.calls, d.CallID)
		delete(s.open[id], d.CallID)
		s.mu.Unlock()
		s.notify(id, toolDone(d.CallID, d.Output, d.IsError))
	case agent.EventCompacted:
		s.onCompacted(e.Data.(agent.CompactedView))
	case agent.EventModeChanged:
		if s.heldBack(e.Data.(agent.ModeView)) {
			return
		}
		s.out.push(func() { s.announceMode(id) })
	case decision.EventAsked:
		d := e.Data.(decision.Decision)
		s.mu.Lock()
		callID := s.lastCall[id]
		s.mu.Unlock()
		s.out.push(func() { go s.ask(d, callID) })
	case decision.EventResolved:
		r := e.Data.(decision.Resolved)
		s.mu.Lock()
		cancel := s.asks[r.ID]
		delete(s.asks, r.ID)
		s.mu.Unlock()
		if cancel != nil {
			cancel() // answered elsewhere, timed out or cancelled: withdraw the request
		}
	case agent.EventTurnEnded:
		te := e.Data.(agent.TurnEnded)
		for _, callID := range s.closeOpen(id) { // calls the turn abandoned when it stopped
			s.notify(id, toolDone(callID, s.t("acp.tool.abandoned", nil), true))
		}
		s.out.push(func() { s.turnEnded(te) })
	}
}

// heldBack reports whether a session.mode event is the switch a set_mode is applying now; that
// one is announced after the reply.
func (s *Server) heldBack(v agent.ModeView) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.setting[v.SessionID]
	return ok && p.Interaction == v.InteractionMode && p.Override == v.ExecutionOverride
}

func (s *Server) onToolCall(v agent.ToolCallView) {
	s.mu.Lock()
	s.lastCall[v.SessionID] = v.CallID
	s.calls[v.CallID] = v
	if s.open[v.SessionID] == nil {
		s.open[v.SessionID] = map[string]bool{}
	}
	again := s.open[v.SessionID][v.CallID]
	s.open[v.SessionID][v.CallID] = true
	s.mu.Unlock()
	if again { // the same call with more detail or its verdict (an external agent's)
		d := s.describe(v.Name, v.Input, s.whereOf(v.SessionID)).withChange(v.Change)
		if v.Summary != "" {
			d.summary = v.Summary
		}
		s.notify(v.SessionID, acp.UpdateToolCall(acp.ToolCallId(v.CallID), acp.WithUpdateTitle(d.title),
			acp.WithUpdateContent(d.content()), acp.WithUpdateLocations(d.locations), acp.WithUpdateRawInput(rawInput(v.Input))))
		return
	}
	status := acp.ToolCallStatusInProgress
	if v.Verdict == "ask" || v.Verdict == "deny" {
		status = acp.ToolCallStatusPending
	}
	d := s.describe(v.Name, v.Input, s.whereOf(v.SessionID)).withChange(v.Change)
	if v.Summary != "" {
		d.summary = v.Summary
	}
	s.notify(v.SessionID, acp.StartToolCall(acp.ToolCallId(v.CallID), d.title, acp.WithStartKind(toolKind(v.Name)),
		acp.WithStartStatus(status), acp.WithStartRawInput(rawInput(v.Input)), acp.WithStartContent(d.content()),
		acp.WithStartLocations(d.locations)))
}

// closeOpen forgets and returns the session's tool calls that never finished.
func (s *Server) closeOpen(sessionID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id := range s.open[sessionID] {
		ids = append(ids, id)
		delete(s.outputs, id)
		delete(s.calls, id)
	}
	sort.Strings(ids)
	delete(s.open, sessionID)
	return ids
}

func toolDone(callID, output string, isError bool) acp.SessionUpdate {
	status := acp.ToolCallStatusCompleted
	if isError {
		status = acp.ToolCallStatusFailed
	}
	return acp.UpdateToolCall(acp.ToolCallId(callID), acp.WithUpdateStatus(status),
		acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(output))}))
}

// toolKind is the ACP kind of one of our tools, for the client's icon.
func toolKind(name string) acp.ToolKind {
	switch name {
	case "read":
		return acp.ToolKindRead
	case "glob", "grep":
		return acp.ToolKindSearch
	case "bash":
		return acp.ToolKindExecute
	case "edit", "write":
		return acp.ToolKindEdit
	case "ask_user":
		return acp.ToolKindThink
	case "exit_plan_mode":
		return acp.ToolKindSwitchMode
	}
	return acp.ToolKindOther
}

func rawInput(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return v
}

// notify queues one update of a session.
func (s *Server) notify(sessionID string, u acp.SessionUpdate) {
	s.out.push(func() { s.send(sessionID, u) })
}

// send writes one update now; the outbox goroutine is its only caller.
func (s *Server) send(sessionID string, u acp.SessionUpdate) {
	s.conn.SessionUpdate(context.Background(), acp.SessionNotification{SessionId: acp.SessionId(sessionID), Update: u})
}

func sessionOf(data any) string {
	switch d := data.(type) {
	case agent.Delta:
		return d.SessionID
	case agent.ToolCallView:
		return d.SessionID
	case agent.ToolDoneView:
		return d.SessionID
	case agent.ModeView:
		return d.SessionID
	case agent.TurnEnded:
		return d.SessionID
	case agent.CompactedView:
		return d.SessionID
	case decision.Decision:
		return d.SessionID
	case decision.Resolved:
		return d.SessionID
	}
	return ""
}
