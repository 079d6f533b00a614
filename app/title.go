package app

import (
	"strings"
	"unicode/utf8"

	"agentdesk/backend/store"
	"agentdesk/locales"
)

// titleMax is how long a title taken from a message may be, in characters.
const titleMax = 60

// firstTitle names a session after its first message while it still has the default title (in
// any language), so the list says what each session is about. The store applies it with the
// first turn; a title the person chose is never replaced.
func (s *Services) firstTitle(text string) store.FirstTitle {
	t := store.FirstTitle{Title: titleFrom(text)}
	for _, lang := range locales.Languages {
		t.Defaults = append(t.Defaults, s.I18n.T(lang, "session.defaultTitle", nil))
	}
	return t
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
