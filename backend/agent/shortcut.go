package agent

import (
	"regexp"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// ShortcutInChat is refused in Chat: action and skill shortcuts need Smart (R-MODE-3).
const ShortcutInChat errs.Kind = "SHORTCUT_IN_CHAT"

var shortcut = regexp.MustCompile(`^\s*/([A-Za-z][\w-]*)(\s|$)`)

// clearCommand starts a fresh context inside the session without a model call.
const clearCommand = "clear"

// parseShortcut returns the shortcut a message starts with, if any.
func parseShortcut(text string) (string, bool) {
	m := shortcut.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// checkShortcut refuses every shortcut but /clear in Chat; in Smart, text passes as written.
func checkShortcut(interaction mode.InteractionMode, text string) (isClear bool, err error) {
	name, ok := parseShortcut(text)
	if !ok {
		return false, nil
	}
	if name == clearCommand {
		return true, nil
	}
	if interaction == mode.Chat {
		return false, errs.New(ShortcutInChat, "Command", "/"+name)
	}
	return false, nil
}
