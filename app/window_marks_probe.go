package app

import (
	"fmt"
	"io"
	"os"
	"time"
)

// MarksEnv, when set in the environment, puts a probe in the page (the window's and serve's)
// that reports two moments: its composer first drawn, and the page at rest. The window writes
// them to stderr; in a browser the page writes them to its console (Chromium's
// --enable-logging=stderr shows them). The startup benchmark (frontend/bench/startup.mjs), the
// desktop benchmark (build/scripts/bench-desktop.sh) and the desktop smoke time the page by
// them. Unset, nothing is added to the page.
const MarksEnv = "AGENTDESK_BENCH_MARKS"

// ComposerMark starts the line written when the composer is first drawn; the time after it is
// the page's clock then, in Unix milliseconds.
const ComposerMark = "agentdesk-bench: composer drawn at "

// RestMark starts the line written when the page is at rest: its composer is drawn and nothing
// in it changed for 700 ms since; the time is that of the frame painted after its last change.
const RestMark = "agentdesk-bench: at rest at "

const markEvent = "bench:mark"

// MarksProbe is the probe, as a script for the page's head: it runs before the bundle, watches
// the document from its start and reports each mark once, right after the frame that showed it
// was painted. In the window it reports through the Wails runtime, elsewhere to the console; an
// error in the page is reported too, as "error <message>".
const MarksProbe = `<script>(() => {
  const wails = !!(window.webkit && window.webkit.messageHandlers);
  const report = (name, at) => {
    const send = () => {
      if (!wails) console.log('agentdesk-bench: ' + name + ' at ' + at);
      else if (window.runtime && window.runtime.EventsEmit) window.runtime.EventsEmit('` + markEvent + `', name, at);
      else setTimeout(send, 10);
    };
    send();
  };
  const afterPaint = (f) => requestAnimationFrame(() => setTimeout(() => f(Date.now()), 0));
  let composer = 0, last = 0, pending = 0, quietTimer = 0, rested = false;
  // No layout is forced while the page changes: the composer's size is read in the frame.
  const drawn = () => !!document.querySelector('[data-testid="composer"], [data-testid="new-task-composer"]');
  const sized = () => {
    const el = document.querySelector('[data-testid="composer"], [data-testid="new-task-composer"]');
    return !!el && el.getBoundingClientRect().height > 0;
  };
  const quiet = () => {
    // Before its composer is painted, the page is waiting, not at rest.
    if (rested || pending > 0 || document.readyState !== 'complete' || composer <= 0) return;
    rested = true;
    watch.disconnect();
    report('at rest', Math.max(last, composer));
  };
  const changed = () => {
    if (rested) return;
    clearTimeout(quietTimer);
    if (composer === 0 && document.body && drawn()) {
      composer = -1;
      const painted = () =>
        afterPaint((t) => {
          if (!sized()) return painted();
          composer = t;
          report('composer drawn', t);
        });
      painted();
    }
    pending++;
    afterPaint((t) => {
      pending--;
      last = Math.max(last, t);
      clearTimeout(quietTimer);
      if (pending === 0) quietTimer = setTimeout(quiet, 700);
    });
  };
  // The stages before the composer: the page's navigation, its scripts run (DOMContentLoaded).
  report('page start', Math.round(performance.timeOrigin));
  document.addEventListener('DOMContentLoaded', () => report('scripts run', Date.now()));
  const watch = new MutationObserver(changed);
  watch.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  window.addEventListener('load', changed);
  window.addEventListener('error', (e) => report('error ' + e.message + ' ' + e.filename + ':' + e.lineno, 0));
})();</script>`

// markRun writes the moment the window is asked for (wails.Run), once the store is open.
func markRun(w io.Writer) {
	if marksWanted() {
		fmt.Fprintf(w, "agentdesk-bench: window run at %d\n", time.Now().UnixMilli())
	}
}

// marksWanted says whether the environment asks for the marks.
func marksWanted() bool { return os.Getenv(MarksEnv) != "" }

// marksHead is the probe when the marks are wanted, else nothing.
func marksHead() string {
	if marksWanted() {
		return MarksProbe
	}
	return ""
}
