// Command agentdesk is the AgentDesk desktop app and its command line.
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
