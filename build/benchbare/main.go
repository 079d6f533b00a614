// Command benchbare is the bare Wails v2 app the startup benchmark (frontend/bench/startup.mjs)
// measures AgentDesk's window against: one static page, no bindings, the window's size and
// colour, built with the same tags (desktop,production). With AGENTDESK_BENCH_MARKS set it
// writes the page's "at rest" mark to stderr as the app does (app/window_marks.go).
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

//go:embed page
var page embed.FS

// probe reports the page at rest as the app's probe does: no change for 700 ms, the time of the
// frame painted after the last one.
const probe = `<script>(() => {
  let last = 0, pending = 0, timer = 0;
  const send = () => window.runtime && window.runtime.EventsEmit ? window.runtime.EventsEmit('bench:mark', 'at rest', last) : setTimeout(send, 10);
  const quiet = () => { if (pending === 0 && document.readyState === 'complete') { watch.disconnect(); send(); } };
  const changed = () => {
    clearTimeout(timer);
    pending++;
    requestAnimationFrame(() => setTimeout(() => {
      pending--;
      last = Math.max(last, Date.now());
      clearTimeout(timer);
      if (pending === 0) timer = setTimeout(quiet, 700);
    }, 0));
  };
  const watch = new MutationObserver(changed);
  watch.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  window.addEventListener('load', changed);
})();</script>`

type withProbe struct{ fs.FS }

func (p withProbe) Open(name string) (fs.File, error) {
	if name != "index.html" || os.Getenv("AGENTDESK_BENCH_MARKS") == "" {
		return p.FS.Open(name)
	}
	b, err := fs.ReadFile(p.FS, name)
	if err != nil {
		return nil, err
	}
	html := strings.Replace(string(b), "<head>", "<head>"+probe, 1)
	return fstestFile(name, html), nil
}

func main() {
	assets, _ := fs.Sub(page, "page")
	err := wails.Run(&options.App{
		Title:            "AgentDesk",
		Width:            1200,
		Height:           800,
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		AssetServer:      &assetserver.Options{Assets: withProbe{assets}},
		OnStartup: func(ctx context.Context) {
			runtime.EventsOn(ctx, "bench:mark", func(data ...any) {
				if len(data) == 2 {
					if at, ok := data[1].(float64); ok {
						fmt.Fprintf(os.Stderr, "agentdesk-bench: %v at %.0f\n", data[0], at)
					}
				}
			})
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
