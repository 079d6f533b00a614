package mode

import "agentdesk/backend/errs"

// ChatWithOverride is the error kind for Chat combined with an execution override (R-MODE-1).
const ChatWithOverride errs.Kind = "CHAT_WITH_OVERRIDE"

// Preference is the session's interaction preference (R-MODE-7): what the person chose in the
// selector, stored separately from each turn's resolved execution mode.
type Preference struct {
	Interaction InteractionMode `json:"interaction_mode"`
	Override    Override        `json:"execution_override"`
}

// Default is the preference of a session nobody configured: plain Smart.
var Default = Preference{Interaction: Smart}

// readOnlySurface is where unknown stored values land: Smart pinned to Analyze.
var readOnlySurface = Preference{Interaction: Smart, Override: Analyze}

// Validate checks both fields and their combination.
func (p Preference) Validate() error {
	if _, err := ParseInteraction(string(p.Interaction)); err != nil {
		return err
	}
	if _, err := ParseOverride(string(p.Override)); err != nil {
		return err
	}
	if p.Override.IsSet() && !p.Interaction.AllowsOverride() {
		return errs.New(ChatWithOverride, "Override", string(p.Override))
	}
	return nil
}

// Unrouted is what p runs as when the Smart router has no say: Chat as chat, an override as
// itself, plain Smart as execute. A direct tool run (the person chose the action) and an
// approved plan (the plan is the route) run so.
func (p Preference) Unrouted() ExecutionMode {
	if p.Interaction == Chat {
		return ModeChat
	}
	if p.Override.IsSet() {
		return p.Override.ExecutionMode()
	}
	return ModeExecute
}

// LabelKey is the locale key of the selector label: "Smart", "Chat" or "Smart · Plan" and so on.
// Each combination has its own key so translators control the whole phrase.
func (p Preference) LabelKey() string {
	if p.Override.IsSet() {
		return "mode.label.smart_" + string(p.Override)
	}
	return p.Interaction.LabelKey()
}
