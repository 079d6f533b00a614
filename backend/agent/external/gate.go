package external

import "agentdesk/backend/policy"

// GateCalls are the calls AgentDesk's gate decides for one of the agent's tool calls: its ACP
// kind says what it does, its locations, diffs and input say where. A kind the gate cannot
// read, or a path kind without a path, or a command without its text, is KindOther: it asks.
func (c ToolCall) GateCalls() []policy.Call {
	var kind policy.Kind
	switch c.Kind {
	case "read":
		kind = policy.KindRead
	case "edit":
		kind = policy.KindEdit
	case "delete", "move":
		kind = policy.KindWrite // a file taken away or renamed is changed as a whole
	case "execute":
		if cmd := commandOf(c.Input); cmd != "" {
			return []policy.Call{{Kind: policy.KindBash, Command: cmd}}
		}
		return []policy.Call{{Kind: policy.KindOther}}
	case "fetch":
		return []policy.Call{{Kind: policy.KindFetch}}
	default:
		return []policy.Call{{Kind: policy.KindOther}}
	}
	var out []policy.Call
	for _, p := range pathsOf(c) {
		out = append(out, policy.Call{Kind: kind, Path: p})
	}
	if len(out) == 0 {
		return []policy.Call{{Kind: policy.KindOther}}
	}
	return out
}

// AllowOption is the agent's option for any allow the gate or the person gives: allow_once, so
// the agent asks again next time and AgentDesk's own grant or rule answers it; an agent without
// one gets its allow_always.
func AllowOption(options []Option) string {
	return optionOf(options, "allow_once", "allow_always")
}

// AllowOnceOption is the agent's allow_once, or "" when it offers only an allow it would
// remember: whether the agent may keep that is the person's to decide.
func AllowOnceOption(options []Option) string {
	return optionOf(options, "allow_once")
}

// RejectOption is the agent's option for a rejection: reject_once, else reject_always.
func RejectOption(options []Option) string {
	return optionOf(options, "reject_once", "reject_always")
}

// optionOf is the id of the first offered option of the first kind in kinds that has one.
func optionOf(options []Option, kinds ...string) string {
	for _, kind := range kinds {
		for _, o := range options {
			if o.Kind == kind {
				return o.ID
			}
		}
	}
	return ""
}
