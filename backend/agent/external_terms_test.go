package agent

import (
	"testing"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// Every cell of the external agent's terms: confined wherever the kernel can, writable only in
// Auto and Full in a mode that changes files, and without a sandbox only Full runs it.
func TestAgentTermsCellByCell(t *testing.T) {
	modes := []mode.ExecutionMode{mode.ModeChat, mode.ModePropose, mode.ModeAnalyze, mode.ModePlan, mode.ModeExecute,
		mode.ModeDebug, mode.ModeVerified, "made-up"}
	perms := []policy.PermissionMode{policy.Ask, policy.Auto, policy.Full, "made-up"}
	for _, ns := range []bool{true, false} {
		for _, m := range modes {
			for _, p := range perms {
				confined, writable, ok := agentTerms(ns, m, p)
				mutating := m == mode.ModeExecute || m == mode.ModeDebug || m == mode.ModeVerified
				want := [3]bool{ns, ns && mutating && (p == policy.Auto || p == policy.Full), ns || p == policy.Full}
				if got := [3]bool{confined, writable, ok}; got != want {
					t.Errorf("namespaces=%v %s %s: confined, writable, ok = %v, want %v", ns, m, p, got, want)
				}
			}
		}
	}
}
