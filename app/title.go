package app

import (
	"strings"
	"unicode/utf8"

	"agentdesk/locales"
)

// titleMax is how long a title taken from a message may be, in characters.
const titleMax = 60

// autoTitle names a session after its first message while it still has the default title, so
// the list says what each session is about. A title the person chose is never replaced.
func (s *Services) autoTitle(sessionID, text string) {
	sess, err := s.Store.GetSession(sessionID)
	if err != nil || !s.isDefaultTitle(sess.Title) {
		return
	}
	if turns, err := s.Store.Turns(sessionID); err != nil || len(turns) > 0 {
		return
	}
	if title := titleFrom(text); title != "" {
		s.Store.RenameSession(sessionID, title)
	}
}

func (s *Services) isDefaultTitle(title string) bool {
	for _, lang := range locales.Languages {
		if title == s.I18n.T(lang, "session.defaultTitle", nil) {
			return true
		}
	}
	return false
}

// titleFrom is a message's first line, its white space collapsed, cut at a word near titleMax.
// A shortcut (/clear, /plan …) names nothing.
func titleFrom(text string) string {
	line := ""
	for _, l := range strings.Split(text, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			line = l
			break
		}
	}
	switch {
	case strings.HasPrefix(line, "/"):
		return ""
	case utf8.RuneCountInString(line) <= titleMax:
		return line
	}
	r := []rune(line)[:titleMax]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > titleMax/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}
