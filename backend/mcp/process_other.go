//go:build !unix

package mcp

import (
	"os/exec"

	"agentdesk/backend/proc"
)

// terminateGroup ends the server itself where there are no process groups.
func terminateGroup(cmd *exec.Cmd) { proc.Kill(cmd) }
