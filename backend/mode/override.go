package mode

import "agentdesk/backend/errs"

// Override is the "Advanced…" choice that pins Smart to one execution mode (R-MODE-1).
// The zero value None means Smart routes every turn itself.
type Override string

const (
	None     Override = ""
	Execute  Override = "execute"
	Plan     Override = "plan"
	Analyze  Override = "analyze"
	Debug    Override = "debug"
	Verified Override = "verified"
)

// Overrides lists the settable overrides in the order the Advanced… entry shows them.
var Overrides = []Override{Execute, Plan, Analyze, Debug, Verified}

// Valid reports whether o is None or one of the canonical overrides.
func (o Override) Valid() bool {
	if o == None {
		return true
	}
	for _, v := range Overrides {
		if o == v {
			return true
		}
	}
	return false
}

// IsSet reports whether o pins an execution mode.
func (o Override) IsSet() bool { return o != None }

// ExecutionMode is the execution mode o pins; None has none and returns "".
func (o Override) ExecutionMode() ExecutionMode { return ExecutionMode(o) }

// ParseOverride parses live input strictly. The empty string means no override, which is how a
// caller clears it; any other value must be canonical.
func ParseOverride(s string) (Override, error) {
	o := Override(s)
	if !o.Valid() {
		return None, errs.Invalid("execution_override", s, overrideNames())
	}
	return o, nil
}

func overrideNames() []string {
	names := make([]string, len(Overrides))
	for i, o := range Overrides {
		names[i] = string(o)
	}
	return names
}
