package external

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"
)

// Merge is what is known of a call after a later report: every field the report carries
// replaces the earlier one, and input objects are merged key by key. Agents such as opencode
// report a call first with little ("rawInput":{}) and describe it fully only when they ask
// permission, so nothing earlier is forgotten and nothing later is ignored.
func (c ToolCall) Merge(n ToolCall) ToolCall {
	if strings.TrimSpace(n.Title) != "" {
		c.Title = n.Title
	}
	if n.Kind != "" {
		c.Kind = n.Kind
	}
	if n.Status != "" {
		c.Status = n.Status
	}
	if n.Output != "" {
		c.Output = n.Output
	}
	c.Input = mergeInput(c.Input, n.Input)
	for _, l := range n.Locations {
		if !slices.Contains(c.Locations, l) {
			c.Locations = append(c.Locations, l)
		}
	}
	if len(n.Diffs) > 0 {
		c.Diffs = n.Diffs
	}
	return c
}

// mergeInput merges two raw inputs: objects key by key (the later wins), anything else is
// replaced by a later value that says something.
func mergeInput(old, later json.RawMessage) json.RawMessage {
	if EmptyInput(later) {
		return old
	}
	var a, b map[string]json.RawMessage
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(later, &b) != nil || a == nil {
		return later
	}
	for k, v := range b {
		a[k] = v
	}
	out, err := json.Marshal(a)
	if err != nil {
		return later
	}
	return out
}

// EmptyInput reports a raw input that says nothing: absent, {} or null.
func EmptyInput(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "{}" || s == "null"
}

// titleLen bounds a call's title: the detail goes in its summary.
const titleLen = 80

// ShortTitle is the call's one-line title: the agent's title (or its kind), first line only.
func (c ToolCall) ShortTitle() string {
	t := strings.TrimSpace(firstNonEmpty(c.Title, c.Kind, "tool"))
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = strings.TrimSpace(t[:i]) + " …"
	}
	if utf8.RuneCountInString(t) > titleLen {
		t = string([]rune(t)[:titleLen-1]) + "…"
	}
	return t
}

// Describe is what the card and the approval show in full: the command, else the change as a
// unified diff, else the paths and what the input says beyond where the call runs. It is never
// a bare {"cwd":…}: a call that says no more than that is described by its title.
func (c ToolCall) Describe() string {
	if cmd := commandOf(c.Input); cmd != "" {
		return cmd
	}
	if len(c.Diffs) > 0 {
		return UnifiedDiff(c.Diffs)
	}
	var parts []string
	parts = append(parts, c.Locations...)
	if in := telling(c.Input); in != nil {
		parts = append(parts, string(in))
	}
	if len(parts) == 0 {
		return c.ShortTitle()
	}
	return strings.Join(parts, "\n")
}

// UnifiedDiff renders the changes a call reports as one unified diff. A file that did not
// exist (no old text, or an empty one) is compared with /dev/null.
func UnifiedDiff(diffs []Diff) string {
	var b strings.Builder
	for _, d := range diffs {
		name := filepath.ToSlash(d.Path)
		from, to := "a/"+name, "b/"+name
		if filepath.IsAbs(d.Path) {
			from, to = name, name
		}
		old := ""
		if d.OldText == nil || *d.OldText == "" {
			from = "/dev/null"
		} else {
			old = *d.OldText
		}
		text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: diffLines(old), B: diffLines(d.NewText),
			FromFile: from, ToFile: to, Context: 3})
		if err != nil || text == "" {
			text = "--- " + from + "\n+++ " + to + "\n"
		}
		b.WriteString(text)
	}
	return strings.TrimRight(b.String(), "\n")
}

// diffLines splits text into lines that each end with a newline, so a last line without one
// still reads as a line of its own; empty text has no lines.
func diffLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n"
	}
	return lines
}

// Command is the shell command a call runs, as its agent names it in the raw input; "" when
// it names none. opencode and claude-code-acp send "command" as a string, codex-acp as an argv
// (often wrapped in "bash -lc"), others "cmd", "commands" or "argv"; a terminal/create of the
// call adds "command" and "args".
func (c ToolCall) Command() string { return commandOf(c.Input) }

func commandOf(input json.RawMessage) string {
	var in map[string]any
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, k := range []string{"command", "cmd", "commands", "argv", "script"} {
		s := words(in[k])
		if s == "" {
			continue
		}
		if args := words(in["args"]); k == "command" && args != "" {
			s += " " + args
		}
		return s
	}
	return ""
}

// shells wrap a command line in an argv: ["bash", "-lc", "ls -la"] says "ls -la".
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "/bin/sh": true, "/bin/bash": true, "/bin/zsh": true,
	"/usr/bin/bash": true, "/usr/bin/zsh": true, "pwsh": true, "powershell": true, "cmd": true}

func words(v any) string {
	switch c := v.(type) {
	case string:
		return strings.TrimSpace(c)
	case []any:
		parts := make([]string, 0, len(c))
		for _, p := range c {
			switch w := p.(type) {
			case string:
				parts = append(parts, w)
			case []any: // a list of commands, each an argv
				if s := words(w); s != "" {
					parts = append(parts, s)
				}
			}
		}
		if len(parts) == 3 && shells[parts[0]] && strings.HasPrefix(parts[1], "-") && strings.ContainsAny(parts[1], "c") {
			return strings.TrimSpace(parts[2])
		}
		nested := len(c) > 0
		for _, p := range c {
			if _, ok := p.([]any); !ok {
				nested = false
			}
		}
		if nested {
			return strings.Join(parts, "\n")
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// quiet are input keys that say where or how a call runs, not what it does: an input of only
// these is no description of the call.
var quiet = map[string]bool{"cwd": true, "workdir": true, "timeout": true, "env": true, "description": true,
	"with_escalated_permissions": true, "justification": true, "sandbox_permissions": true}

// telling is the raw input without its quiet keys, or nil when nothing else is left.
func telling(input json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		if EmptyInput(input) {
			return nil
		}
		return input
	}
	for k := range in {
		if quiet[k] {
			delete(in, k)
		}
	}
	if len(in) == 0 {
		return nil
	}
	out, err := json.Marshal(in)
	if err != nil {
		return nil
	}
	return out
}

// pathsOf are the files a call names: its locations, its diffs' paths and the usual path keys
// of its input, each once.
func pathsOf(c ToolCall) []string {
	var out []string
	add := func(p string) {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, l := range c.Locations {
		add(l)
	}
	for _, d := range c.Diffs {
		add(d.Path)
	}
	var in map[string]any
	if json.Unmarshal(c.Input, &in) == nil {
		for _, k := range []string{"path", "filePath", "file_path", "filepath", "source", "destination", "from", "to"} {
			if s, ok := in[k].(string); ok {
				add(s)
			}
		}
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
