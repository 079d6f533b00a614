//go:build desktop

package app

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// MarksEnv, when set in the environment, makes the window write a line to stderr once its
// composer is first drawn: the desktop benchmark (build/scripts/bench-desktop.sh) and the
// desktop smoke time the real window by it. Unset, nothing is added to the page.
const MarksEnv = "AGENTDESK_BENCH_MARKS"

// ComposerMark starts the line the window writes when its composer is first drawn; the time
// after it is the page's clock then, in Unix milliseconds.
const ComposerMark = "agentdesk-bench: composer drawn at "

const composerDrawnEvent = "bench:composer-drawn"

// composerProbe watches the page until a composer (a session's, or the new task's) has a size,
// then reports the time right after the frame that drew it was painted.
const composerProbe = `(() => {
  const drawn = () => {
    const el = document.querySelector('[data-testid="composer"], [data-testid="new-task-composer"]');
    return !!el && el.getBoundingClientRect().height > 0;
  };
  const report = () => requestAnimationFrame(() => setTimeout(() => window.runtime.EventsEmit('` + composerDrawnEvent + `', Date.now()), 0));
  if (drawn()) return report();
  const watch = new MutationObserver(() => {
    if (drawn()) {
      watch.disconnect();
      report();
    }
  });
  watch.observe(document, { childList: true, subtree: true, attributes: true });
})();`

// markComposer asks the page to report its first drawn composer, and writes the line to w.
func markComposer(ctx context.Context, w io.Writer) {
	runtime.EventsOnce(ctx, composerDrawnEvent, func(data ...any) {
		if len(data) == 1 {
			if at, ok := data[0].(float64); ok {
				fmt.Fprintf(w, "%s%.0f\n", ComposerMark, at)
			}
		}
	})
	runtime.WindowExecJS(ctx, composerProbe)
}

// marksWanted says whether the environment asks for the marks.
func marksWanted() bool { return os.Getenv(MarksEnv) != "" }
