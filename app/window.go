package app

import (
	"context"
	"io/fs"
	"os"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"
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

// RunWindow opens the desktop window and blocks until it closes. Domain events reach the page
// as Wails events of the same name, through the window's own bus subscription (relay). The
// caller closes the services once it returns.
func RunWindow(s *Services, assets fs.FS) error {
	s.Info.Transport = "desktop"
	setProgramName(AppID)
	var stop func()
	return wails.Run(&options.App{
		Title:            "AgentDesk",
		Width:            1200,
		Height:           800,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup: func(ctx context.Context) {
			stop = relay(s.Bus, func(name string, data any) {
				runtime.EventsEmit(ctx, name, data)
				if titleEvents[name] {
					runtime.WindowSetTitle(ctx, s.windowTitle())
				}
			})
		},
		OnDomReady: func(ctx context.Context) {
			runtime.WindowSetTitle(ctx, s.windowTitle())
			s.notifyWaiting()
			if marksWanted() {
				markComposer(ctx, os.Stderr)
			}
		},
		OnShutdown: func(context.Context) {
			if stop != nil {
				stop()
			}
		},
		Bind: s.Facades(),
		// GTK's prgname (set first by setProgramName) is WM_CLASS under X11 and the app id under
		// Wayland, which the desktop matches against the .desktop file's name and StartupWMClass.
		Linux: &linux.Options{Icon: WindowIcon, ProgramName: AppID},
	})
}
