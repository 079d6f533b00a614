// Command agentdesk is the AgentDesk desktop app and its command line. Built with the desktop
// tag it is the window (agentdesk-desktop, linking Wails, GTK and WebKit) and every command;
// built without it and without cgo, it is the command line alone (agentdesk), which starts the
// desktop build beside it only to open the window (app/cli/open_launch.go).
package main

import (
	"embed"
	"io/fs"
	"os"

	"golang.org/x/term"

	"agentdesk/app/cli"
	"agentdesk/backend/sandbox"
)

//go:embed all:frontend/dist
var dist embed.FS

func main() {
	sandbox.RunHelperIfRequested() // first: the sandbox helper must never start the app
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
