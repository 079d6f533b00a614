//go:build desktop

package cli

import (
	"fmt"

	"agentdesk/app"
)

// desktopBuild: this binary opens the window itself and links GTK and WebKit.
const desktopBuild = true

// OpenDesktop opens the store and the window; main passes it as Env.Desktop. Closing the window
// closes the services after it: running turns are cancelled and awaited before the store closes.
func OpenDesktop(c *Context) error {
	if app.HandOff(c.DataDir, nil) {
		key := "desktop.handedOff"
		if c.Folder != "" {
			key = "desktop.handedOffFolder"
		}
		fmt.Fprintln(c.Stderr, c.T(key, "Path", c.Folder))
		return nil
	}
	svc, closeServices, err := c.openServices(nil)
	if err != nil {
		return err
	}
	defer closeServices()
	return app.RunWindow(svc, c.Assets)
}
