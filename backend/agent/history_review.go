package agent

import (
	"fmt"
	"strings"

	"agentdesk/backend/eventlog"
)

// What the person did to the workspace between turns reaches the model as part of the next
// turn's context: a note in the user's voice, joined to the next message (appendUserText).
// Model-facing text, so English and here rather than in locales/.

// maxPatchNote bounds the reverted change quoted to the model.
const maxPatchNote = 4000

func (h *history) Restore(r eventlog.Restore) {
	if len(r.Changed) == 0 || r.ForkOf != "" {
		return // a fork starts before the turn: its history has nothing to take back
	}
	var b strings.Builder
	fmt.Fprintf(&b, "NOTE: the person restored the workspace files to checkpoint %d", r.CheckpointID)
	if r.TurnID != "" {
		b.WriteString(" (as they were before one of your earlier turns)")
	}
	b.WriteString(". Files it changed:\n")
	for _, c := range r.Changed {
		fmt.Fprintf(&b, "- %s (%s)\n", c.Path, restoredAction(c.Action))
	}
	b.WriteString("Work from the files as they are now; read them again before changing them.")
	h.note(b.String())
}

// restoredAction says what a restore did to a file, from the action that turned the workspace
// into the checkpoint's state.
func restoredAction(action string) string {
	switch action {
	case "create":
		return "brought back"
	case "delete":
		return "deleted"
	}
	return "put back as it was"
}

func (h *history) Review(r eventlog.Review) {
	reason := strings.TrimSpace(r.Reason)
	if r.Action == eventlog.ReviewAccept {
		if reason != "" {
			h.note(fmt.Sprintf("NOTE: the person reviewed your change to %s and accepted it, saying: %s", r.Path, reason))
		}
		return
	}
	var b strings.Builder
	if len(r.Hunks) == 0 {
		fmt.Fprintf(&b, "NOTE: the person reviewed your change to %s and reverted all of it.", r.Path)
	} else {
		fmt.Fprintf(&b, "NOTE: the person reviewed your change to %s and reverted part of it.", r.Path)
	}
	if patch := r.Patch; patch != "" {
		if len(patch) > maxPatchNote {
			patch = patch[:maxPatchNote] + "\n[… cut]"
		}
		fmt.Fprintf(&b, " The change they reverted:\n```diff\n%s```", patch)
	}
	if reason != "" {
		fmt.Fprintf(&b, "\nTheir reason: %s", reason)
	}
	b.WriteString("\nDo not make that change again unless they ask for it.")
	h.note(b.String())
}

// note adds text for the model in the user's voice, answering any call still open first.
func (h *history) note(text string) {
	h.msgs = closeOpen(h.msgs, h.open)
	h.msgs = appendUserText(h.msgs, text)
}
