// Command agentdesk is the AgentDesk desktop app and its command line.
package main

import (
	"embed"
	"io/fs"
	"os"

	"golang.org/x/term"

	"agentdesk/app"
	"agentdesk/app/cli"
	"agentdesk/backend/sandbox"
)

//go:embed all:frontend/dist
var dist embed.FS

//go:embed build/package/linux/icons/hicolor/256x256/apps/dev.agentdesk.AgentDesk.png
var icon []byte

func main() {
	sandbox.RunHelperIfRequested() // first: the sandbox helper must never start the app
	app.WindowIcon = icon
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err)
	}
	os.Exit(cli.Main(os.Args[1:], cli.Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		IsTerminal: func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
		Assets:     assets,
		Desktop:    cli.OpenDesktop,
	}))
}
