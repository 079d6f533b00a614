package mode

// ModeSetPayload is the JSON payload of a mode.set entry of the event log, which decodes and
// folds it (eventlog.ModeInForce). interaction_mode is required; an absent or empty
// execution_override means none.
type ModeSetPayload struct {
	InteractionMode   string `json:"interaction_mode"`
	ExecutionOverride string `json:"execution_override,omitempty"`
	// Reason says why the mode changed when the person did not change it themselves:
	// ReasonPlanApproved, an approved plan's exit back to the mode before Plan.
	Reason string `json:"reason,omitempty"`
}

// ReasonPlanApproved marks the mode change an approved plan makes (R-PLAN-2).
const ReasonPlanApproved = "plan_approved"

// State is the mode in force after folding a log.
type State struct {
	Preference Preference
	// FromLog is false when the log held no mode.set entry and the initial preference stands.
	FromLog bool
	// Unrecognized lists what the deciding entry held that could not be read.
	Unrecognized []Unrecognized
}

// UnreadableModeSet is what a mode.set payload that could not be decoded at all reads as: the
// read-only surface, reporting the whole payload as unrecognized. It is never skipped: skipping
// it would let an earlier, maybe wider mode stand in for a switch no one could read.
func UnreadableModeSet(raw []byte) Decoded {
	return Decoded{Preference: readOnlySurface, Unrecognized: []Unrecognized{{Field: "payload", Raw: string(raw)}}}
}
