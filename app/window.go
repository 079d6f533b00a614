package app

// The window itself (RunWindow, HandOff) is in window_desktop.go, built only with the desktop tag:
// the command-line build links neither Wails nor GTK and WebKit.

import (
	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
)

// AppID names AgentDesk to the desktop: the .desktop file, the icon, the AppStream metainfo
// (build/package/linux) and the window's WM_CLASS all use it, so a launcher, a dock and a
// notification find one another.
const AppID = "dev.agentdesk.AgentDesk"

// WindowIcon is the window's PNG icon; main embeds it from build/package, where the packaging
// keeps the same icon for the desktop's theme.
var WindowIcon []byte

// titleEvents are the broadcasts after which the window's title may change: a decision asked or
// answered, the language, or a page that lost events and reloads.
var titleEvents = map[string]bool{decision.EventAsked: true, decision.EventResolved: true,
	EventSettingsChanged: true, bus.EventOverflow: true}

// windowTitle says how many decisions wait, across every session: the title shows in the task
// bar and the window switcher, where a missed notification is still seen.
func (s *Services) windowTitle() string {
	rows, err := s.Store.AllPending()
	if err != nil || len(rows) == 0 {
		return "AgentDesk"
	}
	return s.T("window.title.waiting", map[string]any{"Count": len(rows)})
}
