package mode

import "encoding/json"

// EventModeSet is the event type whose fold gives the mode in force (R-PLAN-1).
const EventModeSet = "mode.set"

// LogEntry is the minimal view of a session event the fold needs.
type LogEntry struct {
	Type    string
	Payload []byte
}

// ModeSetPayload is the JSON payload of a mode.set event. interaction_mode is required;
// an absent or empty execution_override means none.
type ModeSetPayload struct {
	InteractionMode   string `json:"interaction_mode"`
	ExecutionOverride string `json:"execution_override,omitempty"`
}

// NewModeSet builds the log entry that records p; use it so writers and the fold agree.
func NewModeSet(p Preference) LogEntry {
	b, _ := json.Marshal(ModeSetPayload{InteractionMode: string(p.Interaction), ExecutionOverride: string(p.Override)})
	return LogEntry{Type: EventModeSet, Payload: b}
}

// State is the mode in force after folding a log.
type State struct {
	Preference Preference
	// FromLog is false when the log held no mode.set event and the initial preference stands.
	FromLog bool
	// Unrecognized lists what the deciding event held that could not be read.
	Unrecognized []Unrecognized
}

// Fold returns the mode in force: the fold of the log's mode.set events, the last one winning,
// starting from initial (R-PLAN-1). Because the last event wins outright, scanning backwards to it
// is the same fold, and it makes the cost of a long log one pass of string compares.
//
// The deciding event is read like any persisted value (DecodePreference): retired spellings fold
// and anything unreadable — bad JSON, an unknown value, a missing interaction_mode — reads as the
// read-only surface, Smart · Analyze. It is never skipped: skipping it would let an earlier, maybe
// wider mode stand in for a switch we could not read.
// Entries of other types are ignored. A fork copies the log, so it folds to the same state.
func Fold(initial Preference, log []LogEntry) State {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == EventModeSet {
			return InForce(initial, log[i].Payload)
		}
	}
	return State{Preference: initial}
}

// InForce is the fold of a log whose last mode.set event held lastModeSet, nil when the log holds
// none: the session row keeps that payload, so the mode in force is read without walking the log.
func InForce(initial Preference, lastModeSet []byte) State {
	if lastModeSet == nil {
		return State{Preference: initial}
	}
	d := DecodeModeSet(lastModeSet)
	return State{Preference: d.Preference, FromLog: true, Unrecognized: d.Unrecognized}
}

// LastNonPlan returns the most recent preference in the log that is not Smart · Plan, or Default
// when there is none — where approving a plan returns to (R-PLAN-2).
func LastNonPlan(log []LogEntry) Preference {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type != EventModeSet {
			continue
		}
		if p := DecodeModeSet(log[i].Payload).Preference; p.Override != Plan {
			return p
		}
	}
	return Default
}

// DecodeModeSet reads a mode.set payload as the fold does: a payload that is not JSON of the
// right shape reads as the read-only surface, reported as the unrecognized field "payload". The
// event log marks the same payloads unreadable (eventlog.Decode), so the two never disagree.
func DecodeModeSet(payload []byte) Decoded {
	var m ModeSetPayload
	if err := json.Unmarshal(payload, &m); err != nil {
		return Decoded{Preference: readOnlySurface, Unrecognized: []Unrecognized{{Field: "payload", Raw: string(payload)}}}
	}
	return DecodePreference(m.InteractionMode, m.ExecutionOverride)
}
