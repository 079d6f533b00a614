package external

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// ModeIDs are the selector ids every surface speaks (ACP and external agents): the two
// interaction modes, then the overrides, each meaning Smart with that override.
func ModeIDs() []string {
	ids := []string{string(mode.Smart), string(mode.Chat)}
	for _, o := range mode.Overrides {
		ids = append(ids, string(o))
	}
	return ids
}

// ModeID is the selector id of a preference: its override when set, else its interaction mode.
func ModeID(p mode.Preference) string {
	if p.Override.IsSet() {
		return string(p.Override)
	}
	return string(p.Interaction)
}

// ModeInput turns a selector id into the follow-up input every caller validates through the
// one validator; an unknown id is INVALID_VALUE.
func ModeInput(id string) (mode.FollowUpInput, error) {
	smart, none := string(mode.Smart), ""
	switch id {
	case string(mode.Smart):
		return mode.FollowUpInput{InteractionMode: &smart, ExecutionOverride: &none}, nil
	case string(mode.Chat):
		chat := string(mode.Chat)
		return mode.FollowUpInput{InteractionMode: &chat}, nil
	}
	if o := mode.Override(id); o.IsSet() && o.Valid() {
		return mode.FollowUpInput{InteractionMode: &smart, ExecutionOverride: &id}, nil
	}
	return mode.FollowUpInput{}, errs.Invalid("modeId", id, ModeIDs())
}
