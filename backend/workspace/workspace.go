// Package workspace holds the one rule for which folder an agent may be given as its workspace.
// Every path that creates a session (the window, the browser, the CLI, import, ACP) goes through
// Resolve, so a folder refused in one place is refused in all of them. Rule is the pure part:
// it decides on a path and the home folder alone, and its table test names each case.
package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"agentdesk/backend/errs"
)

// Error kinds; each has the message "error." + kind, which says why the folder was refused.
const (
	// Required: no folder was given. There is no default, so the person must choose one.
	Required errs.Kind = "WORKSPACE_REQUIRED"
	// Relative: the path is not absolute, so it would mean whatever the process's current folder
	// happens to be.
	Relative errs.Kind = "WORKSPACE_RELATIVE"
	// Invalid: the path is one the rules do not read (a NUL byte, ~otheruser, …): refused
	// rather than guessed.
	Invalid errs.Kind = "WORKSPACE_INVALID"
	// SystemFolder: the root or a folder of the operating system.
	SystemFolder errs.Kind = "WORKSPACE_SYSTEM_FOLDER"
	// ContainsHome: a folder above the home folder, which holds it and everything in it.
	ContainsHome errs.Kind = "WORKSPACE_CONTAINS_HOME"
	// HomeNeedsConfirmation: the home folder itself, allowed only after the person confirmed it.
	HomeNeedsConfirmation errs.Kind = "WORKSPACE_HOME_NEEDS_CONFIRMATION"
	// NotFound: no folder at that path (errs.NoWorkspace, shared with older callers).
	NotFound = errs.NoWorkspace
)

// Kinds lists every kind this package returns, so a test can check each has a message.
var Kinds = []errs.Kind{Required, Relative, Invalid, SystemFolder, ContainsHome, HomeNeedsConfirmation, NotFound}

// systemTrees are refused with everything below them: the system's own programs, libraries,
// configuration and kernel interfaces are never a project.
var systemTrees = []string{
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/sys", "/usr",
	"/System", "/private/etc", "/private/var/db",
}

// systemRoots are refused themselves but not below: projects do live in /var/www/site, /opt/app,
// /srv/site, /tmp/x or on a mounted disk, while the folder itself holds other people's data.
var systemRoots = []string{
	"/var", "/opt", "/srv", "/home", "/tmp", "/mnt", "/media", "/root", "/snap", "/lost+found",
	"/Users", "/Volumes", "/Library", "/Applications", "/private", "/private/var", "/private/tmp",
}

// Expand turns "~" and "~/x" into the home folder and a path below it; other paths come back as
// they are. "~user" is refused: naming another account's home is not something to guess.
func Expand(raw, home string) (string, error) {
	if raw != "~" && !strings.HasPrefix(raw, "~/") {
		if strings.HasPrefix(raw, "~") {
			return "", errs.New(Invalid, "Path", raw)
		}
		return raw, nil
	}
	if home == "" || !filepath.IsAbs(home) {
		return "", errs.New(Invalid, "Path", raw)
	}
	return filepath.Join(home, strings.TrimPrefix(raw, "~")), nil
}

// Rule decides on an already expanded path, without touching the disk: nil when the folder may
// be a workspace (as far as its name goes). home is the person's home folder ("" when unknown:
// then no folder counts as home, and the system rules still hold). confirmHome is the person's
// explicit consent to give the agent the whole home folder.
func Rule(path, home string, confirmHome bool) error {
	if strings.TrimSpace(path) == "" {
		return errs.New(Required)
	}
	if strings.ContainsRune(path, 0) || strings.TrimSpace(path) != path {
		return errs.New(Invalid, "Path", path)
	}
	if !filepath.IsAbs(path) {
		return errs.New(Relative, "Path", path)
	}
	p := filepath.Clean(path)
	h := ""
	// A home of "/" (some service accounts) would make the root confirmable: it counts as none.
	if home != "" && filepath.IsAbs(home) && filepath.Clean(home) != string(filepath.Separator) {
		h = filepath.Clean(home)
	}
	if h != "" && p == h {
		if confirmHome {
			return nil
		}
		return errs.New(HomeNeedsConfirmation, "Path", p)
	}
	if p == string(filepath.Separator) {
		return errs.New(SystemFolder, "Path", p)
	}
	for _, t := range systemTrees {
		if p == t || strings.HasPrefix(p, t+"/") {
			return errs.New(SystemFolder, "Path", p)
		}
	}
	// The home folder may sit below a system root (/root, /home/u): being inside home is fine.
	if h != "" && strings.HasPrefix(p, h+"/") {
		return nil
	}
	if h != "" && strings.HasPrefix(h, p+"/") {
		return errs.New(ContainsHome, "Path", p, "Home", h)
	}
	for _, r := range systemRoots {
		if p == r {
			return errs.New(SystemFolder, "Path", p)
		}
	}
	// Another account's administrator home: /root is private to root, and a workspace there is
	// only ever the home of whoever runs as root, which the branch above allowed.
	if p == "/root" || strings.HasPrefix(p, "/root/") {
		return errs.New(SystemFolder, "Path", p)
	}
	return nil
}

// Resolve applies the whole rule to what a person or a file gave: it expands ~, checks the name,
// checks that the folder exists, and returns it with symlinks followed, checked again — so a link
// to /etc is refused like /etc, and the stored workspace names the real folder that the gate and
// the file tools confine to.
func Resolve(raw string, confirmHome bool) (string, error) {
	return resolve(raw, Home(), confirmHome)
}

func resolve(raw, home string, confirmHome bool) (string, error) {
	path, err := Expand(raw, home)
	if err != nil {
		return "", err
	}
	if err := Rule(path, home, confirmHome); err != nil {
		return "", err
	}
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return "", errs.New(NotFound, "Path", raw)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return "", errs.Wrap(NotFound, err, "Path", raw)
	}
	realHome := home
	if home != "" {
		if h, err := filepath.EvalSymlinks(home); err == nil {
			realHome = h
		}
	}
	if err := Rule(real, realHome, confirmHome); err != nil {
		return "", err
	}
	return real, nil
}

// Home is the home folder, "" when the system does not say.
func Home() string {
	h, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(h) {
		return ""
	}
	return filepath.Clean(h)
}
