// Command helper is the sandbox helper alone: a static, pure-Go program that the desktop build
// embeds and runs from memory for every shell command. The desktop binary itself links GTK and
// WebKit, whose loading costs tens of milliseconds at every exec; this one starts in about one.
package main

import (
	"fmt"
	"os"

	"agentdesk/backend/sandbox"
)

func main() {
	sandbox.RunHelperIfRequested()
	// Started any other way, it does nothing: it is never a second copy of the app.
	fmt.Fprintln(os.Stderr, "agentdesk sandbox helper: started without a request")
	os.Exit(125)
}
