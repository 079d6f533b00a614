//go:build !desktop

package cli

import "os"

// desktopBuild: this binary opens no window itself and links none of the desktop libraries.
const desktopBuild = false

// OpenDesktop, in the command-line build, hands the window to the desktop build beside this
// executable: on Unix by executing it in this process's place (same process, terminal and exit
// status), so nothing of GTK or WebKit is loaded until a window is asked for. main passes it as
// Env.Desktop.
func OpenDesktop(c *Context) error {
	path, err := desktopPath()
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return launchError(path, err)
	}
	if err := startDesktop(path, desktopArgs(c), c); err != nil {
		return launchError(path, err)
	}
	return nil
}
