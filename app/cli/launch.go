package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"agentdesk/backend/errs"
)

// The command line and the window are two builds of one program. The command line (built
// without the desktop tag and without cgo) links neither Wails nor GTK and WebKit, so serve, run,
// acp and the data commands start on a machine that has none of them; it opens the window by
// executing the desktop build installed beside it under this name.
const DesktopBinary = "agentdesk-desktop"

// Error kinds of opening the window from the command line.
const (
	// DesktopMissing: no desktop build beside the command line (Path); the terminal commands
	// still work.
	DesktopMissing errs.Kind = "DESKTOP_MISSING"
	// DesktopFailed: the desktop build is there (Path) but could not be started (Detail).
	DesktopFailed errs.Kind = "DESKTOP_FAILED"
)

// desktopPath is where the desktop build must be: beside this executable, symbolic links
// resolved, as the package, `make install` and `make build` lay them out. Where the system cannot
// say which file is running (no /proc), the path it was started by stands in.
func desktopPath() (string, error) {
	self, err := os.Executable()
	if err != nil && strings.ContainsRune(os.Args[0], filepath.Separator) {
		self, err = filepath.Abs(os.Args[0])
	}
	if err != nil {
		return "", errs.New(DesktopFailed, "Path", DesktopBinary, "Detail", err.Error())
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	return filepath.Join(filepath.Dir(self), DesktopBinary), nil
}

// desktopArgs hands the invocation to the desktop build as parsed here: the data folder in
// force (from --data-dir, AGENTDESK_DATA_DIR or the default) and the absolute folder to open.
func desktopArgs(c *Context) []string {
	args := []string{"--data-dir", c.DataDir}
	if c.Folder != "" {
		args = append(args, c.Folder)
	}
	return args
}

// launchError says why the desktop build at path could not be started.
func launchError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errs.New(DesktopMissing, "Path", path)
	}
	return errs.New(DesktopFailed, "Path", path, "Detail", err.Error())
}
