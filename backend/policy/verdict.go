package policy

import "agentdesk/backend/errs"

// Decision is the gate's answer.
type Decision string

const (
	DecideAllow Decision = "allow"
	DecideAsk   Decision = "ask"
	DecideDeny  Decision = "deny"
)

// Layer names the R-GATE-1 step that decided, so the UI can say "allowed by rule".
type Layer string

const (
	LayerProfile   Layer = "profile"   // (1) the execution mode's hard deny
	LayerRule      Layer = "rule"      // (2) a deny rule, or (3) an always-allow rule
	LayerProtected Layer = "protected" // (2) a protected or unresolvable path
	LayerGrant     Layer = "grant"     // (3) allow for this session
	LayerMode      Layer = "mode"      // (4) the permission mode
	LayerSandbox   Layer = "sandbox"   // a step out of the kernel sandbox, asked in every mode
)

// Verdict is the gate's decision with its reason.
type Verdict struct {
	Decision Decision
	Layer    Layer
	// Code is set on every deny. On an ask it names the concern (PATH_OUTSIDE_WORKSPACE,
	// PROTECTED_PATH, DENIED_BY_RULE) — the error to report if the question cannot be put.
	Code errs.Kind
	// ReasonKey is a locale key explaining the verdict; ReasonArgs fills its template.
	ReasonKey  string
	ReasonArgs map[string]any
	// RuleID names the rule that decided, when one did.
	RuleID string
	// ApprovedScripts is set when the call asks because the files it runs changed since a grant
	// or allow rule approved them: that approval's record (scripts.go), for the card's diff.
	ApprovedScripts string
}

// Err is the error a denied call returns to the model; nil unless the verdict is deny.
func (v Verdict) Err() error {
	if v.Decision != DecideDeny {
		return nil
	}
	kv := make([]any, 0, 2*len(v.ReasonArgs))
	for k, a := range v.ReasonArgs {
		kv = append(kv, k, a)
	}
	return errs.New(v.Code, kv...)
}

func allow(l Layer, reason string) Verdict {
	return Verdict{Decision: DecideAllow, Layer: l, ReasonKey: reason}
}

func ask(l Layer, code errs.Kind, reason string) Verdict {
	return Verdict{Decision: DecideAsk, Layer: l, Code: code, ReasonKey: reason}
}

func deny(l Layer, code errs.Kind) Verdict {
	return Verdict{Decision: DecideDeny, Layer: l, Code: code, ReasonKey: "error." + string(code)}
}
