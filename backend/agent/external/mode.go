package external

import (
	"strings"

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

// AgentMode is one mode an external agent publishes: its id and its display name.
type AgentMode struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// planWords are the names agents give a mode that does not change files, in order of
// preference: codex-acp publishes read-only, auto and full-access and no mode called plan, so
// Smart · Plan maps to read-only rather than being refused.
var planWords = []string{"plan", "read-only", "readonly", "read_only", "ask"}

// PlanMode is the id of the agent's mode that Smart · Plan maps to: the first mode whose id
// or name says plan, else one that is read-only or ask; "" when it has none. A mode that only
// contains "ask" in a longer word (say "task") does not count: asking is then not its point.
func PlanMode(modes []AgentMode) string {
	for i, w := range planWords {
		for _, m := range modes {
			id, name := strings.ToLower(strings.TrimSpace(m.ID)), strings.ToLower(strings.TrimSpace(m.Name))
			if i == 0 && (strings.Contains(id, w) || strings.Contains(name, w)) {
				return m.ID
			}
			if id == w || name == w || strings.HasPrefix(name, w+" ") || strings.HasPrefix(name, w+":") {
				return m.ID
			}
		}
	}
	return ""
}
