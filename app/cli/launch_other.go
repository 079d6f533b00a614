//go:build !unix && !desktop

package cli

import (
	"errors"
	"os"
	"os/exec"
)

// startDesktop runs the desktop build and waits for it, where a process cannot be replaced.
func startDesktop(path string, args []string, c *Context) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, c.Stdout, c.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode()) // the window's own error is already on stderr
	}
	return err
}
