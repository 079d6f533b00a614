package app

import (
	"context"
	"io/fs"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// RunWindow opens the desktop window and blocks until it closes. Domain events reach the page
// as Wails events of the same name, through the window's own bus subscription (relay). The
// caller closes the services once it returns.
func RunWindow(s *Services, assets fs.FS) error {
	s.Info.Transport = "desktop"
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
			stop = relay(s.Bus, func(name string, data any) { runtime.EventsEmit(ctx, name, data) })
			s.setPicker(func(title string) (string, error) {
				return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
			})
		},
		OnDomReady: func(ctx context.Context) {
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
	})
}
