// What one load of the app did between navigation and a mark (the first session row), from a
// Chromium trace and the page's own Performance entries: each request with its start and end, each
// task of the page's main thread with what took its time, and the main thread's time by kind.
// Used by browser.mjs --waterfall; a traced load is slower than an untraced one, so its total is
// shown for the shape, not as a figure.

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8',
  'v8.execute',
  'toplevel',
];

/** Kinds of main-thread work, by trace event name. */
const KIND = {
  ParseHTML: 'parse HTML',
  ParseAuthorStyleSheet: 'parse CSS',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  'V8.CompileCode': 'compile',
  'v8.parseOnBackground': 'compile',
  EvaluateScript: 'script',
  'v8.evaluateModule': 'script',
  FunctionCall: 'script',
  RunMicrotasks: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  EventDispatch: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  Commit: 'paint',
  MajorGC: 'GC',
  MinorGC: 'GC',
  'V8.GC_SCAVENGER': 'GC',
};

const r = (v) => String(Math.round(v)).padStart(5);

/** The short name of a request: its path, the token dropped. */
function shortName(url) {
  try {
    const u = new URL(url);
    return u.pathname + (u.search && !u.search.includes('token') ? u.search : '');
  } catch {
    return url;
  }
}

/** Traces load() (which navigates and resolves with the mark, in the page's clock) and prints the waterfall. */
export async function waterfall(page, cdp, load) {
  const events = [];
  const onData = (e) => events.push(...e.value);
  cdp.on('Tracing.dataCollected', onData);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: CATEGORIES } });
  const mark = await load();
  const perf = await page.evaluate(() => ({
    nav: performance.getEntriesByType('navigation')[0]?.toJSON(),
    res: performance.getEntriesByType('resource').map((e) => e.toJSON()),
    paint: performance.getEntriesByType('paint').map((e) => e.toJSON()),
  }));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', onData);
  if (mark === null) {
    console.log('waterfall: the mark was not reached');
    return;
  }
  console.log(`\nwaterfall of one traced load: first row at ${Math.round(mark)} ms (page clock, ms from navigation)`);
  printRequests(perf, mark);
  printMainThread(events, mark);
}

function printRequests({ nav, res, paint }, mark) {
  console.log('\n  requests                                   start  reply    end   size');
  if (nav) {
    if (nav.redirectEnd > 0) console.log(`  ${'(redirect: token to cookie)'.padEnd(40)} ${r(nav.redirectStart)}        ${r(nav.redirectEnd)}`);
    console.log(`  ${shortName(nav.name).padEnd(40)} ${r(nav.fetchStart)}  ${r(nav.responseStart)}  ${r(nav.responseEnd)}  ${r(nav.encodedBodySize / 1024)} KB`);
  }
  for (const e of res.filter((e) => e.startTime <= mark)) {
    console.log(`  ${shortName(e.name).padEnd(40)} ${r(e.startTime)}  ${r(e.responseStart)}  ${r(e.responseEnd)}  ${r(e.encodedBodySize / 1024)} KB${e.transferSize === 0 ? ' (cache)' : ''}`);
  }
  if (nav) console.log(`  DOMContentLoaded ${Math.round(nav.domContentLoadedEventEnd)} ms; ${paint.map((p) => `${p.name} ${Math.round(p.startTime)} ms`).join('; ')}`);
}

/** The renderer's main thread that navigated: the one holding the last navigationStart before the mark. */
function mainThread(events) {
  const starts = events.filter((e) => e.name === 'navigationStart' && !String(e.args?.data?.documentLoaderURL ?? '').startsWith('about:'));
  const start = starts.at(-1);
  if (!start) return null;
  return { pid: start.pid, tid: start.tid, t0: start.ts };
}

function printMainThread(events, mark) {
  const main = mainThread(events);
  if (!main) {
    console.log('  (no navigationStart in the trace)');
    return;
  }
  const at = (e) => (e.ts - main.t0) / 1000;
  const end = mark;
  const own = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && at(e) >= -1 && at(e) <= end)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const runs = own.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  // The two names nest (one task, two events): the outer one counts.
  const tasks = runs.filter((t) => !runs.some((o) => o !== t && o.ts <= t.ts && o.ts + o.dur >= t.ts + t.dur && (o.ts < t.ts || o.dur > t.dur || runs.indexOf(o) < runs.indexOf(t))));
  console.log('\n  main-thread tasks of 2 ms or more        start    ms  what (events of 1 ms or more inside)');
  for (const task of tasks.filter((t) => t.dur >= 2000)) {
    const inside = own.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e.dur >= 1000 && KIND[e.name]);
    const what = inside
      .slice(0, 8)
      .map((e) => `${e.name}${detail(e)} ${Math.round(e.dur / 1000)}`)
      .join(', ');
    console.log(`  ${''.padEnd(40)} ${r(at(task))} ${r(task.dur / 1000)}  ${what}`);
  }
  // Time by kind: the innermost known kind counts, so a Layout inside a FunctionCall is layout.
  const byKind = {};
  const known = own.filter((e) => KIND[e.name]);
  for (const e of known) {
    const children = known.filter((c) => c !== e && c.ts >= e.ts && c.ts + c.dur <= e.ts + e.dur && c.ts + c.dur <= main.t0 + end * 1000);
    const nested = children.filter((c) => !children.some((p) => p !== c && c.ts >= p.ts && c.ts + c.dur <= p.ts + p.dur));
    const selfUs = Math.max(0, Math.min(e.dur, (main.t0 + end * 1000) - e.ts) - nested.reduce((n, c) => n + c.dur, 0));
    byKind[KIND[e.name]] = (byKind[KIND[e.name]] ?? 0) + selfUs / 1000;
  }
  const busy = tasks.reduce((n, t) => n + Math.min(t.dur, main.t0 + end * 1000 - t.ts), 0) / 1000;
  console.log(`\n  main thread busy ${Math.round(busy)} of ${Math.round(end)} ms: ${Object.entries(byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${Math.round(v)}`)
    .join(', ')}`);
}

function detail(e) {
  const d = e.args?.data ?? e.args?.beginData ?? {};
  const url = d.url ?? d.fileName;
  if (url) return `(${shortName(url).split('/').pop()})`;
  if (d.functionName) return `(${d.functionName})`;
  if (e.name === 'TimerFire' || e.name === 'EventDispatch') return d.type ? `(${d.type})` : '';
  return '';
}
