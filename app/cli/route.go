package cli

import (
	"fmt"

	"agentdesk/backend/mode"
)

// RouteView is `agentdesk route --json`.
type RouteView struct {
	ExecutionMode string `json:"execution_mode"`
	Reason        string `json:"reason"`
	ReasonKey     string `json:"reason_key"`
}

func runRoute(c *Context, args []string) int {
	fs := c.flags("route")
	jsonFlag(c, fs)
	pos, code, ok := c.parseArgs(fs, args, []string{"TEXT"})
	if !ok {
		return code
	}
	d := mode.Route(pos[0])
	v := RouteView{ExecutionMode: string(d.Mode), ReasonKey: d.ReasonKey, Reason: c.msgs.T(c.lang, d.ReasonKey, d.ReasonArgs)}
	if wantsJSON(fs) {
		c.printJSON(v)
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "%s\t%s\n", v.ExecutionMode, v.Reason)
	return ExitOK
}
