//go:build desktop

package main

import (
	_ "embed"

	"agentdesk/app"
)

// The window's icon, from build/package, where the packaging keeps the same icon for the
// desktop's theme; the command-line build has no window and does not carry it.
//
//go:embed build/package/linux/icons/hicolor/256x256/apps/dev.agentdesk.AgentDesk.png
var icon []byte

func init() { app.WindowIcon = icon }
