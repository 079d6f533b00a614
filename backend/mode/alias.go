package mode

import "agentdesk/backend/errs"

// cliAliases are the values the CLI's --mode flag accepts. Besides the canonical interaction
// modes it keeps the execution-mode spellings of earlier releases working for scripts, and lets
// an override be named directly. This is the documented CLI exception to strict live input
// (R-DATA-3); no other surface may use it.
var cliAliases = map[string]Preference{
	"smart":     {Interaction: Smart},
	"chat":      {Interaction: Chat},
	"agent":     {Interaction: Smart},
	"read-only": {Interaction: Smart, Override: Analyze},
	"plan":      {Interaction: Smart, Override: Plan},
	"execute":   {Interaction: Smart, Override: Execute},
	"analyze":   {Interaction: Smart, Override: Analyze},
	"debug":     {Interaction: Smart, Override: Debug},
	"verified":  {Interaction: Smart, Override: Verified},
}

// cliAliasNames is the allowed list shown in the error, in a stable, readable order.
var cliAliasNames = []string{"smart", "chat", "agent", "read-only", "plan", "execute", "analyze", "debug", "verified"}

// ParseExecutionAlias parses the CLI's --mode value:
//
//	smart, chat                         -> that interaction mode, no override
//	agent                               -> smart (retired spelling)
//	read-only                           -> smart · analyze (retired spelling)
//	plan, execute, analyze, debug, verified -> smart with that override
//
// Anything else is rejected with INVALID_VALUE listing these values.
func ParseExecutionAlias(s string) (Preference, error) {
	p, ok := cliAliases[s]
	if !ok {
		return Preference{}, errs.Invalid("mode", s, cliAliasNames)
	}
	return p, nil
}
