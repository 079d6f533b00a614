//go:build sandboxhelper

package main

import (
	_ "embed"

	"agentdesk/backend/sandbox"
)

// sandboxHelper is backend/sandbox/helper built static (the Makefile builds it first): shell
// commands start it from memory instead of re-executing this binary, whose GTK and WebKit
// libraries cost tens of milliseconds to load at every exec.
//
//go:embed build/helper/agentdesk-sandbox
var sandboxHelper []byte

func init() { sandbox.UseHelperImage(sandboxHelper) }
