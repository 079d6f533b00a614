//go:build desktop

package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"agentdesk/backend/sandbox"
)

// RunWindow opens the desktop window and blocks until it closes. Domain events reach the page
// as Wails events of the same name, through the window's own bus subscription (relay). The
// caller closes the services once it returns.
func RunWindow(s *Services, assets fs.FS) error {
	s.Info.Transport = "desktop"
	setProgramName(AppID)
	var stop func()
	var window context.Context
	markRun(os.Stderr)
	// The page's first read (the settings) says whether commands are sandboxed, which only a probe
	// tells: a helper started in its namespaces, about 10 ms. It runs beside GTK's start rather
	// than inside the page's first request.
	go sandbox.Status()
	return wails.Run(&options.App{
		Title:            "AgentDesk",
		Width:            1200,
		Height:           800,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: windowBackground(s),
		// The page comes with the first screen's reads answered (firstreads.go) and, for the
		// benchmarks, the probe that reports its marks (window_marks.go).
		AssetServer: &assetserver.Options{Assets: withHead(assets, func() string { return marksHead() + s.firstReadsHead() })},
		OnStartup: func(ctx context.Context) {
			window = ctx
			if marksWanted() {
				markPage(ctx, os.Stderr)
			}
			stop = relay(s.Bus, func(name string, data any) {
				runtime.EventsEmit(ctx, name, data)
				if titleEvents[name] {
					runtime.WindowSetTitle(ctx, s.windowTitle())
				}
			})
			s.setPicker(func(title string) (string, error) {
				return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
			})
		},
		OnDomReady: func(ctx context.Context) {
			runtime.WindowSetTitle(ctx, s.windowTitle())
			s.notifyWaiting()
			// What starting up allocated (the store's migrations and checks, the page's first
			// reads) is garbage once the page is up: collected and given back to the system
			// once, rather than held until the heap doubles (about 10 MB of the window's PSS).
			time.AfterFunc(time.Second, debug.FreeOSMemory)
		},
		OnShutdown: func(context.Context) {
			if stop != nil {
				stop()
			}
		},
		Bind: s.Facades(),
		// A launch that HandOff missed (two at once) still ends here rather than in a second window.
		SingleInstanceLock: &options.SingleInstanceLock{UniqueId: instanceID(s.Info.DataDir),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) {
				if window != nil {
					runtime.WindowUnminimise(window)
					runtime.WindowShow(window)
				}
			}},
		// GTK's prgname (set first by setProgramName) is WM_CLASS under X11 and the app id under
		// Wayland, which the desktop matches against the .desktop file's name and StartupWMClass.
		// Hardware acceleration as Wails sets it when no Linux options are given: a non-nil
		// Options left it at "always", which loads Mesa's GL (llvmpipe where there is no GPU,
		// LLVM included) into both the window and the web process, about 100 MB of PSS measured
		// under Xvfb (frontend/bench/startup.mjs), for a page that has no 3D, video or canvas to
		// accelerate. "On demand" measured the same as "always" there.
		Linux: &linux.Options{Icon: WindowIcon, ProgramName: AppID, WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	})
}

// instanceID names the single-instance lock: the app id and the data folder, so one store has
// one window while a second data folder (--data-dir) still opens its own.
func instanceID(dataDir string) string {
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	sum := sha256.Sum256([]byte(dataDir))
	return AppID + "." + hex.EncodeToString(sum[:6])
}

// HandOff brings forward the window already open on dataDir, if there is one, and says whether
// it did. It runs before the store opens: a second process on the store would take the first
// one's running turns for interrupted. The call is the one Wails' own single-instance lock
// answers (options.SingleInstanceLock), on the session bus.
func HandOff(dataDir string, args []string) bool {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return false
	}
	defer conn.Close()
	id := "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(instanceID(dataDir))
	name, path := "org."+id+".SingleInstance", dbus.ObjectPath("/org/"+id+"/SingleInstance")
	var owned bool
	if conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&owned) != nil || !owned {
		return false
	}
	wd, _ := os.Getwd()
	msg, err := json.Marshal(options.SecondInstanceData{Args: args, WorkingDirectory: wd})
	if err != nil {
		return false
	}
	return conn.Object(name, path).Call(name+".SendMessage", 0, string(msg)).Store() == nil
}

// windowBackground is what the window shows before the page paints: the dark palette's page
// colour when the saved theme is dark, else the light one ("system" cannot be read from here).
func windowBackground(s *Services) *options.RGBA {
	if theme, _, _ := s.Store.GetSetting(settingTheme); theme == string(ThemeDark) {
		return &options.RGBA{R: 23, G: 23, B: 26, A: 255}
	}
	return &options.RGBA{R: 250, G: 250, B: 250, A: 255}
}
