package mode

// ExecutionMode is what a turn actually runs as; it is resolved per turn and stored on the turn.
type ExecutionMode string

const (
	ModeChat     ExecutionMode = "chat"
	ModePropose  ExecutionMode = "propose"
	ModeAnalyze  ExecutionMode = "analyze"
	ModePlan     ExecutionMode = "plan"
	ModeExecute  ExecutionMode = "execute"
	ModeDebug    ExecutionMode = "debug"
	ModeVerified ExecutionMode = "verified"
)

// ExecutionModes lists every known execution mode.
var ExecutionModes = []ExecutionMode{ModeChat, ModePropose, ModeAnalyze, ModePlan, ModeExecute, ModeDebug, ModeVerified}

// Known reports whether m has its own row in the profile table.
func (m ExecutionMode) Known() bool {
	_, ok := profiles[m]
	return ok
}

// Profile returns m's profile; an unknown mode gets the read-only surface (R-GATE-2).
func (m ExecutionMode) Profile() Profile { return ProfileOf(m) }

// MayMutate reports whether m may change the workspace at all (subject to the permission mode).
func (m ExecutionMode) MayMutate() bool { return row(m).MayMutate }

// Offers reports whether m offers tool t to the model; the gate uses the same answer as its hard layer.
func (m ExecutionMode) Offers(t Tool) bool { return row(m).Offers(t) }

// OffersMCP reports whether m offers an MCP tool with the given read-only annotation; the gate
// uses the same answer as its hard layer. An unknown mode offers only read-only ones.
func (m ExecutionMode) OffersMCP(readOnlyHint bool) bool { return row(m).OffersMCP(readOnlyHint) }

// LabelKey is the locale key of the mode's display name.
func (m ExecutionMode) LabelKey() string {
	if !m.Known() {
		return "mode.label.unknown"
	}
	return "mode.label." + string(m)
}

// DecodeExecutionMode reads a turn's stored execution mode. An unknown value reads as analyze,
// the read-only surface, and ok is false so the caller can report it.
func DecodeExecutionMode(raw string) (m ExecutionMode, ok bool) {
	m = ExecutionMode(raw)
	if !m.Known() {
		return ModeAnalyze, false
	}
	return m, true
}
