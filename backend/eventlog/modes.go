package eventlog

import "agentdesk/backend/mode"

// ModeInForce is the fold of a log whose last mode.set entry held lastModeSet, nil when the log
// holds none: the session row keeps that payload, so the mode in force is read without walking
// the log.
//
// The deciding entry is read by this package's decoder and then like any persisted value
// (mode.DecodePreference): retired spellings fold, and anything unreadable — bad JSON, an unknown
// value, a missing interaction_mode — reads as the read-only surface, Smart · Analyze. It is never
// skipped: skipping it would let an earlier, maybe wider mode stand in for a switch we could not
// read.
func ModeInForce(initial mode.Preference, lastModeSet []byte) mode.State {
	if lastModeSet == nil {
		return mode.State{Preference: initial}
	}
	d := ReadModeSet(lastModeSet)
	return mode.State{Preference: d.Preference, FromLog: true, Unrecognized: d.Unrecognized}
}

// LastNonPlan returns the most recent preference in the log that is not Smart · Plan, or
// mode.Default when there is none — where approving a plan returns to (R-PLAN-2).
func LastNonPlan(log []Entry) mode.Preference {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type != TypeModeSet {
			continue
		}
		if p := ReadModeSet(log[i].Payload).Preference; p.Override != mode.Plan {
			return p
		}
	}
	return mode.Default
}

// ReadModeSet reads one mode.set payload as the fold does: an entry this package cannot decode
// reads as the read-only surface, reported as the unrecognized field "payload".
func ReadModeSet(raw []byte) mode.Decoded {
	if m, ok := Decode(0, TypeModeSet, raw).(ModeSet); ok {
		return m.Preference()
	}
	return mode.UnreadableModeSet(raw)
}
