//go:build sandboxhelper

package main

import (
	_ "embed"

	"agentdesk/backend/sandbox"
)

// sandboxHelper is backend/sandbox/helper built static (the Makefile builds it first and embeds
// it in both builds): shell commands start it from memory instead of re-executing this binary,
// which is large and, in the desktop build, loads GTK and WebKit at every exec.
//
//go:embed build/helper/agentdesk-sandbox
var sandboxHelper []byte

func init() { sandbox.UseHelperImage(sandboxHelper) }
