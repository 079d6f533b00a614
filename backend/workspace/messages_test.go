package workspace_test

import (
	"testing"

	"agentdesk/backend/i18n"
	"agentdesk/backend/workspace"
)

func TestEveryRefusalHasAMessage(t *testing.T) {
	keys := make([]string, 0, len(workspace.Kinds))
	for _, k := range workspace.Kinds {
		keys = append(keys, "error."+string(k))
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
