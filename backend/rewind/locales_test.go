package rewind_test

import (
	"testing"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/hunk"
	"agentdesk/backend/i18n"
	"agentdesk/backend/rewind"
)

// Every error kind of checkpoints, hunks and reviews has a message in every shipped language,
// and so has every title session/load gives a restore or a review.
func TestEveryKindHasAMessage(t *testing.T) {
	kinds := []errs.Kind{checkpoint.Missing, checkpoint.NeedsConfirmation, checkpoint.RestoreFailed, checkpoint.TooLarge,
		checkpoint.NotAFile, rewind.Busy, rewind.Unavailable, rewind.NoTurn, rewind.NotText, hunk.Conflict}
	keys := []string{"tool.result.partial", "acp.restore.files", "acp.restore.conversation", "acp.restore.both", "acp.review.accepted", "acp.review.reverted"}
	for _, k := range kinds {
		keys = append(keys, "error."+string(k))
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
