package cli

import (
	"os"
	"path/filepath"
	"runtime"
)

// DefaultDataDir is AGENTDESK_DATA_DIR, else the OS data folder: $XDG_DATA_HOME/agentdesk
// (~/.local/share/agentdesk) on Linux, Application Support on macOS, LocalAppData on Windows.
func DefaultDataDir(getenv func(string) string) string {
	if d := getenv("AGENTDESK_DATA_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "AgentDesk")
	case "windows":
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "AgentDesk")
		}
	}
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "agentdesk")
	}
	return filepath.Join(home, ".local", "share", "agentdesk")
}
