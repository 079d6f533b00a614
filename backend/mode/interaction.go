package mode

import "agentdesk/backend/errs"

// InteractionMode is the person's top-level choice in the composer selector (R-MODE-1).
type InteractionMode string

const (
	Smart InteractionMode = "smart"
	Chat  InteractionMode = "chat"
)

// InteractionModes lists the valid interaction modes in selector order.
var InteractionModes = []InteractionMode{Smart, Chat}

// Valid reports whether m is one of the canonical interaction modes.
func (m InteractionMode) Valid() bool { return m == Smart || m == Chat }

// AllowsOverride reports whether an execution override may accompany m; only Smart takes one.
func (m InteractionMode) AllowsOverride() bool { return m == Smart }

// OffersTools reports whether turns in m may offer any tool to the model (Chat offers none).
func (m InteractionMode) OffersTools() bool { return m == Smart }

// LabelKey is the locale key of the mode's selector label.
func (m InteractionMode) LabelKey() string { return "mode.label." + string(m) }

// ParseInteraction parses live input strictly: only "smart" and "chat" are accepted.
// Retired spellings such as "agent" are rejected here; they are only folded when read back from
// storage (DecodePreference) or given to the CLI alias parser (ParseExecutionAlias).
func ParseInteraction(s string) (InteractionMode, error) {
	m := InteractionMode(s)
	if !m.Valid() {
		return "", errs.Invalid("interaction_mode", s, interactionNames())
	}
	return m, nil
}

func interactionNames() []string {
	names := make([]string, len(InteractionModes))
	for i, m := range InteractionModes {
		names[i] = string(m)
	}
	return names
}
