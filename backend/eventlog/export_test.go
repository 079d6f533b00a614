package eventlog

import "agentdesk/backend/mode"

// Check reports why a payload of type typ could not be read, or nil.
func Check(typ string, raw []byte) error {
	_, err := decode(typ, raw)
	return err
}

// Problems lists the entries of a log that could not be read, in order.
func Problems(log []Record) []Unreadable {
	var out []Unreadable
	for _, r := range log {
		if u, ok := r.Payload.(Unreadable); ok {
			out = append(out, u)
		}
	}
	return out
}

// FoldModes returns the mode in force: the fold of the log's mode.set entries, the last one
// winning, starting from initial (R-PLAN-1). Because the last entry wins outright, scanning
// backwards to it is the same fold, and it makes the cost of a long log one pass of string
// compares.
//
// The deciding entry is read by this package's decoder and then like any persisted value
// (mode.DecodePreference): retired spellings fold, and anything unreadable — bad JSON, an unknown
// value, a missing interaction_mode — reads as the read-only surface, Smart · Analyze. It is never
// skipped: skipping it would let an earlier, maybe wider mode stand in for a switch we could not
// read. Entries of other types are ignored. A fork copies the log, so it folds to the same state.
func FoldModes(initial mode.Preference, log []Entry) mode.State {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == TypeModeSet {
			return ModeInForce(initial, log[i].Payload)
		}
	}
	return mode.State{Preference: initial}
}
