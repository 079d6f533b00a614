package mode

// FollowUpInput is the mode part of any follow-up message, as it arrives from the desktop binding,
// the browser bridge, the CLI or ACP. A nil field was omitted by the caller.
type FollowUpInput struct {
	InteractionMode   *string
	ExecutionOverride *string // a pointer to "" explicitly clears the override
	// Temporary marks an override for this turn only (automation, CLI --once, R-MODE-6).
	Temporary bool
}

// FollowUp is the validated result.
type FollowUp struct {
	// Preference is what this turn runs under.
	Preference Preference
	// Save says whether Preference becomes the session's new preference. It is false for a
	// temporary input — whether or not its turn succeeds — and when nothing changed.
	Save bool
}

// ValidateFollowUp is the one validator for every caller (R-MODE-7). Omitted fields take the
// session's preference. Values are parsed strictly. Chat with an explicit override is rejected
// with ChatWithOverride; switching to Chat without naming an override drops the session's
// override, because Chat never carries one. An explicit override while the session (and the
// input) stay in Chat is also rejected: we do not guess that the person meant Smart.
func ValidateFollowUp(session Preference, in FollowUpInput) (FollowUp, error) {
	p := session
	interactionGiven := in.InteractionMode != nil
	if interactionGiven {
		m, err := ParseInteraction(*in.InteractionMode)
		if err != nil {
			return FollowUp{}, err
		}
		p.Interaction = m
	}
	if in.ExecutionOverride != nil {
		o, err := ParseOverride(*in.ExecutionOverride)
		if err != nil {
			return FollowUp{}, err
		}
		p.Override = o
	} else if interactionGiven && !p.Interaction.AllowsOverride() {
		p.Override = None
	}
	if err := p.Validate(); err != nil {
		return FollowUp{}, err
	}
	return FollowUp{Preference: p, Save: !in.Temporary && p != session}, nil
}
