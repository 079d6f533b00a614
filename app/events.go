package app

import (
	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/mcp"
	"agentdesk/backend/rewind"
	"agentdesk/backend/session"
)

// Broadcast names the app layer publishes itself.
const (
	EventSettingsChanged = "settings.changed"
	EventRulesChanged    = "rules.changed"
)

// EventPayloads is every broadcast the page may subscribe to, by name, with a zero value of
// the payload it carries: the contract generator (build/gents) types the page's subscriptions
// from it, and every app test fails on an event published under a name or with a payload this
// table does not list (checkEvents in app_test.go).
func EventPayloads() map[string]any {
	return map[string]any{
		agent.EventTurnStarted:       agent.TurnStarted{},
		agent.EventTurnWaiting:       agent.TurnWaiting{},
		agent.EventTurnDelta:         agent.Delta{},
		agent.EventToolCall:          agent.ToolCallView{},
		agent.EventToolOutput:        agent.Delta{},
		agent.EventToolProgress:      agent.ProgressView{},
		agent.EventToolDone:          agent.ToolDoneView{},
		agent.EventDirectDone:        agent.DirectResult{},
		agent.EventTurnEnded:         agent.TurnEnded{},
		agent.EventQueue:             agent.QueueView{},
		agent.EventSessionFailed:     agent.SessionFailed{},
		agent.EventModeChanged:       agent.ModeView{},
		agent.EventCleared:           agent.ClearedView{},
		external.EventAgentStatus:    external.AgentStatus{},
		agent.EventCheckpoint:        agent.CheckpointView{},
		agent.EventCompacted:         agent.CompactedView{},
		agent.EventRuleAdded:         agent.RuleAdded{},
		decision.EventAsked:          decision.Decision{},
		decision.EventResolved:       decision.Resolved{},
		mcp.EventChanged:             mcp.ChangedView{},
		rewind.EventRestored:         rewind.RestoreDone{},
		rewind.EventReviewed:         rewind.ReviewDone{},
		bus.EventOverflow:            bus.Overflow{},
		session.EventWorktreeChanged: session.WorktreeChanged{},
		EventSessionsChanged:         SessionsChanged{},
		EventSessionState:            SessionState{},
		EventPermissionChanged:       PermissionView{},
		EventSettingsChanged:         SettingsView{},
		EventRulesChanged:            []RuleView{},
		EventWorktreeSetup:           WorktreeSetupView{},
		EventWorktreeSetupStarted:    WorktreeSetupView{},
	}
}
