// Installed in every page of the browser benchmark before the app's own scripts (addInitScript):
// what the page itself sees, on its own clock (performance.now() counts from the navigation).
// Nothing here changes what the app does; it only watches.
(() => {
  const MARK_PREFIX = 'agentdesk-bench: ';
  const bench = {
    marks: {},
    /** Long animation frames (over 50 ms), as Chromium reports them. */
    loaf: [],
    /** The 30 s relative-time clock's ticks: when each ran and how long its callback took. */
    ticks: [],
    /** The longest gap between two animation frames while gaps() runs. */
    gap: { running: false, max: 0, at: 0, last: 0 },
  };
  window.__bench = bench;
  // The first row is watched from the document's start: navigation to first row on the page's own
  // clock. The mark is also written to the console, where the benchmark waits for it: asking the
  // page for it (page.waitForFunction) would install Playwright's own script in the page during the
  // very load being timed, a task of about 100 ms on a busy machine that can land between the
  // first row's frame and the mark.
  queueMicrotask(() =>
    bench.when(bench.firstRow, 600_000).then((t) => {
      bench.marks.firstRow = t ?? -1;
      console.debug(`${MARK_PREFIX}firstRow ${bench.marks.firstRow}`);
    }),
  );

  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.loaf.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    bench.loafUnsupported = true;
  }

  // The clock that re-renders relative times runs on a 30 s interval: its ticks are timed so the
  // idle figure can say one fell inside the window it watched.
  const setIntervalOrig = window.setInterval;
  window.setInterval = function (fn, ms, ...rest) {
    if (typeof fn === 'function' && ms >= 30_000) {
      const f = fn;
      fn = function (...a) {
        const at = performance.now();
        try {
          return f.apply(this, a);
        } finally {
          bench.ticks.push({ at, took: performance.now() - at, interval: ms });
        }
      };
    }
    return setIntervalOrig.call(this, fn, ms, ...rest);
  };

  /**
   * Resolves in the first task after the one running now: from a frame's callback, right after
   * that frame is painted. The task is posted at the scheduler's highest priority, so what the
   * app queued meanwhile (the session view it draws once the list is painted) runs after the
   * mark, not before it: the frame is on screen whatever the page does next.
   */
  const nextTask = () =>
    new Promise((r) => (window.scheduler?.postTask ? window.scheduler.postTask(r, { priority: 'user-blocking' }) : setTimeout(r, 0)));

  /** Resolves after the frame that is being prepared has been painted. */
  const afterPaint = () => new Promise((r) => requestAnimationFrame(() => nextTask().then(r)));

  /**
   * Resolves with performance.now() right after the first frame painted while test() holds, or
   * with null after timeoutMs. test() runs once per frame in which the document changed, in that
   * frame's animation callbacks: the frame it holds in is the one painted next, so the mark is the
   * task after that frame (waiting for a frame more would count one frame, about 17 ms, too many).
   */
  bench.when = (test, timeoutMs) =>
    new Promise((resolve) => {
      let done = false;
      let found = false;
      let queued = false;
      const finish = (v) => {
        if (done) return;
        done = true;
        mo.disconnect();
        resolve(v);
      };
      const check = (inFrame) => {
        queued = false;
        if (done || found) return;
        let ok = false;
        try {
          ok = test();
        } catch {
          ok = false;
        }
        if (!ok) return;
        found = true;
        (inFrame ? nextTask() : afterPaint()).then(() => finish(performance.now()));
      };
      const mo = new MutationObserver(() => {
        if (!queued) {
          queued = true;
          requestAnimationFrame(() => check(true));
        }
      });
      mo.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
      setTimeout(() => finish(null), timeoutMs);
      check(false);
    });

  const visibleIn = (el, box) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.width > 0 && r.bottom > box.top && r.top < box.bottom && r.right > box.left && r.left < box.right;
  };
  const viewport = () => ({ top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth });

  /** A row of the session list is drawn on screen. */
  bench.firstRow = () => {
    for (const el of document.querySelectorAll('[data-testid="session-item"]')) if (visibleIn(el, viewport())) return true;
    return false;
  };

  /**
   * The first screen of a session's transcript is drawn: its view is open, an item of the
   * conversation is on screen, and the log shows its newest end (where a session opens).
   */
  bench.transcriptShown = (id) => {
    const view = document.querySelector(`[data-testid="session-view"][data-session-id="${CSS.escape(id)}"]`);
    const log = view?.querySelector('[data-testid="transcript"]');
    if (!log) return false;
    const box = log.getBoundingClientRect();
    const items = log.querySelectorAll('[data-testid="msg-user"],[data-testid="msg-assistant"],[data-testid="tool-card"],[data-testid="turn-chip"]');
    if (items.length === 0 || !visibleIn(items[items.length - 1], box)) return false;
    return log.scrollHeight - log.scrollTop - log.clientHeight < 48;
  };

  /** The open session's last turn shows as done. */
  bench.turnDone = (id) => {
    const view = document.querySelector(`[data-testid="session-view"][data-session-id="${CSS.escape(id)}"]`);
    const ends = view?.querySelectorAll('[data-testid="turn-status"]');
    return !!ends?.length && ends[ends.length - 1].getAttribute('data-status') === 'done';
  };

  /** Starts timing the gaps between animation frames (what the person sees as a hitch). */
  bench.gaps = () => {
    const g = bench.gap;
    Object.assign(g, { running: true, max: 0, at: 0, last: 0 });
    const step = (t) => {
      if (!g.running) return;
      if (g.last && t - g.last > g.max) Object.assign(g, { max: t - g.last, at: g.last });
      g.last = t;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };
  bench.stopGaps = () => {
    bench.gap.running = false;
    return { max: bench.gap.max, at: bench.gap.at };
  };

  /** The longest long animation frame that started in [from, to). */
  bench.longest = (from, to = Infinity) =>
    bench.loaf.filter((e) => e.start >= from && e.start < to).reduce((m, e) => Math.max(m, e.duration), 0);

  /** Resolves once no long frame ended in the last quietMs, or after maxMs. */
  bench.quiet = (quietMs, maxMs) =>
    new Promise((resolve) => {
      const started = performance.now();
      const poll = () => {
        const now = performance.now();
        const lastEnd = bench.loaf.reduce((m, e) => Math.max(m, e.start + e.duration), 0);
        if (now - lastEnd >= quietMs || now - started >= maxMs) resolve(now);
        else setTimeout(poll, 100);
      };
      poll();
    });
})();
