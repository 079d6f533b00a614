package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// secretWords mark a variable as a likely secret wherever they occur in its name.
var secretWords = []string{"KEY", "SECRET", "TOKEN", "PASSWORD"}

// providerPrefixes mark the model providers' own variables (base URLs, organisations, keys).
var providerPrefixes = []string{"ANTHROPIC_", "OPENAI_"}

// ScrubEnv returns environ without the variables a shell command should not see: any whose
// name contains KEY, SECRET, TOKEN or PASSWORD, and the providers' ANTHROPIC_* and OPENAI_*,
// compared case-insensitively, unless passThrough names the variable exactly. The sandbox keeps
// commands from reading the app's memory; this keeps them from reading its environment.
//
// PATH keeps only its absolute entries: a relative or empty one (".", "bin", "::") would let a
// command the gate judged by its name, such as `git status`, run a file the agent wrote into
// the workspace.
func ScrubEnv(environ []string, passThrough []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH":
			out = append(out, "PATH="+absoluteEntries(value))
		case !looksSecret(name) || slices.Contains(passThrough, name):
			out = append(out, kv)
		}
	}
	return out
}

func absoluteEntries(list string) string {
	var kept []string
	for _, dir := range filepath.SplitList(list) {
		if filepath.IsAbs(dir) {
			kept = append(kept, dir)
		}
	}
	return strings.Join(kept, string(filepath.ListSeparator))
}

func looksSecret(name string) bool {
	upper := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(upper, w) {
			return true
		}
	}
	for _, p := range providerPrefixes {
		if strings.HasPrefix(upper, p) {
			return true
		}
	}
	return false
}
