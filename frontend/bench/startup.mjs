// The startup rows, measured in one X session (run it under xvfb-run) with the three
// launches alternating: AgentDesk's window, a bare Wails v2 app (build/benchbare: one static
// page, the same tags) and Debian's Chromium in --app mode showing the same UI from
// `agentdesk serve`. Each launch is timed from its spawn:
//
//   window mapped   the first window of the process is visible (xdotool search --pid, every 20 ms)
//   composer drawn  the page's probe (app/window_marks.go): the frame that showed the composer
//   UI at rest      the page's probe: the frame after the page's last change (none for 700 ms)
//   PSS             the proportional set size of the process and its children at rest
//                   (for Chromium, serve's too: the same UI needs it)
//
//   node frontend/bench/startup.mjs --bin build/bin/agentdesk --bare build/bin/benchbare [--runs N] [--data DIR] [--smaps] [--before BIN]
//
// DIR is the data folder the window and serve open (default: a fresh empty one, the first
// launch's screen: the new task's composer); each run gets its own copy. After one warm-up
// launch of each, N rounds alternate the three; the medians are printed side by side with the
// ratios the goals are set in (and, to find what a change does, --only picks subjects and
// --variant NAME:VAR=VALUE adds the window again with a variable set). --before adds another AgentDesk binary (an older build) to the
// rounds, to measure a change side by side. --smaps adds, for the window's last launch, where its memory is:
// each process's PSS by mapping, and the bare app's beside it. A missed goal is printed, not failed.
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { descendants } from './procs.mjs';

const { values: opt } = parseArgs({
  options: {
    bin: { type: 'string' },
    bare: { type: 'string' },
    runs: { type: 'string' },
    data: { type: 'string' },
    smaps: { type: 'boolean', default: false },
    chromium: { type: 'string' },
    before: { type: 'string' },
    only: { type: 'string' },
    variant: { type: 'string', multiple: true },
  },
});
if (!process.env.DISPLAY) throw new Error('startup.mjs needs an X display: run it under xvfb-run');
const bin = resolve(opt.bin ?? 'build/bin/agentdesk');
const bare = resolve(opt.bare ?? 'build/bin/benchbare');
const chromium = opt.chromium ?? '/usr/bin/chromium';
const runs = Number(opt.runs ?? 5);
const LIMIT_MS = 60_000;
const work = mkdtempSync(join(tmpdir(), 'agentdesk-startup-'));
const xdg = { XDG_CONFIG_HOME: join(work, 'xdg/config'), XDG_CACHE_HOME: join(work, 'xdg/cache'), XDG_DATA_HOME: join(work, 'xdg/data') };
const baseEnv = { ...process.env, ...xdg, LANG: 'en_US.UTF-8', AGENTDESK_BENCH_MARKS: '1', HOME: join(work, 'home') };
delete baseEnv.ANTHROPIC_API_KEY;
delete baseEnv.OPENAI_API_KEY;
mkdirSync(baseEnv.HOME, { recursive: true });

let folders = 0;
/** A fresh data folder: a copy of --data, or an empty one. */
function dataFolder() {
  const dir = join(work, `data-${folders++}`);
  if (opt.data) cpSync(resolve(opt.data), dir, { recursive: true, preserveTimestamps: true });
  else mkdirSync(dir);
  return dir;
}

const pssOf = (pid) => {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};
const treePss = (pid) => [pid, ...descendants(pid)].reduce((n, p) => n + pssOf(p), 0);

/** Where a process's PSS is, by mapping (anonymous mappings by kind), largest first. */
function smapsOf(pid) {
  const by = new Map();
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      name = m[2] || `[anon ${m[1]}]`;
      continue;
    }
    const p = /^Pss:\s+(\d+) kB/.exec(line);
    if (p) by.set(name, (by.get(name) ?? 0) + Number(p[1]));
  }
  return [...by.entries()].sort((a, b) => b[1] - a[1]);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Spawns a launch and resolves with its figures (ms from the spawn, bytes), then ends it. */
async function launch(kind, cmd, args, env, { extraPss = () => 0, smaps = false } = {}) {
  const t0 = Date.now();
  const proc = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const r = { mapped: null, composer: null, rest: null, pss: null, run: null, page: null, scripts: null };
  let output = '';
  // xdotool's own --sync looks every 500 ms: asked every 20 ms instead.
  const mapped = (async () => {
    while (Date.now() - t0 < LIMIT_MS && proc.exitCode === null) {
      const found = await new Promise((res) => {
        const x = spawn('xdotool', ['search', '--onlyvisible', '--pid', String(proc.pid)], { stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        x.stdout.on('data', (c) => (out += c));
        x.on('exit', () => res(out.trim() !== ''));
      });
      if (found) return Date.now() - t0;
      await sleep(20);
    }
    return null;
  })();
  const rest = new Promise((res) => {
    proc.stderr.on('data', (chunk) => {
      output += chunk.toString();
      const c = /agentdesk-bench: composer drawn at (\d+)/.exec(output);
      if (c && r.composer === null) {
        r.composer = Number(c[1]) - t0;
        // An older build reports no rest: its memory is read 3 s after its composer.
        setTimeout(() => res(null), 3000);
      }
      for (const [key, name] of [['run', 'window run'], ['page', 'page start'], ['scripts', 'scripts run']]) {
        const x = new RegExp(`agentdesk-bench: ${name} at (\\d+)`).exec(output);
        if (x && r[key] === null) r[key] = Number(x[1]) - t0;
      }
      const m = /agentdesk-bench: at rest at (\d+)/.exec(output);
      if (m) res(Number(m[1]) - t0);
    });
    proc.on('exit', () => res(null));
    setTimeout(() => res(null), LIMIT_MS);
  });
  r.mapped = await mapped;
  r.rest = await rest;
  if (r.rest !== null || r.composer !== null) {
    r.pss = treePss(proc.pid) + extraPss();
    if (smaps) {
      for (const pid of [proc.pid, ...descendants(proc.pid)]) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
        const list = smapsOf(pid);
        const total = list.reduce((n, [, kb]) => n + kb, 0);
        console.log(`\n${kind}: pid ${pid} ${cmdline}: PSS ${Math.round(total / 1024)} MB, largest mappings (MB):`);
        for (const [name, kb] of list.slice(0, 12)) console.log(`  ${(kb / 1024).toFixed(1).padStart(7)}  ${name}`);
      }
    }
  } else {
    console.error(`startup: ${kind} reached no rest within ${LIMIT_MS / 1000} s:\n${output.slice(-2000)}`);
  }
  try {
    process.kill(-proc.pid, 'SIGTERM');
  } catch {
    // gone
  }
  for (let i = 0; i < 100 && proc.exitCode === null && proc.signalCode === null; i++) await sleep(50);
  try {
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // gone
  }
  await sleep(300);
  return r;
}

/** `agentdesk serve` on its own folder, for the Chromium launches; resolves with its address. */
function startServe() {
  const proc = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data-dir', dataFolder()], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((res, rej) => {
    let out = '';
    proc.stdout.on('data', (c) => {
      out += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out);
      if (m) res({ proc, url: m[1] });
    });
    proc.on('exit', (code) => rej(new Error(`serve exited with ${code}: ${out}`)));
  });
}

// A launch that broke (GTK failing to start under a loaded Xvfb was seen once in 40) is left
// out and counted in the samples' line; a figure no launch reached is "–".
const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const serve = await startServe();
  const profile = join(work, 'chromium-profile');
  const subjects = {
    window: (smaps) => launch('window', bin, ['--data-dir', dataFolder()], baseEnv, { smaps }),
    ...(opt.before ? { before: () => launch('before', resolve(opt.before), ['--data-dir', dataFolder()], baseEnv) } : {}),
    bare: (smaps) => launch('bare', bare, [], baseEnv, { smaps }),
    chromium: () =>
      launch(
        'chromium',
        chromium,
        [
          `--app=${serve.url}`,
          `--user-data-dir=${profile}`,
          '--enable-logging=stderr',
          '--no-first-run',
          '--no-default-browser-check',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-sandbox',
          '--window-size=1200,800',
        ],
        baseEnv,
        { extraPss: () => pssOf(serve.proc.pid) },
      ),
  };
  // --variant NAME:VAR=VALUE adds the window again with that variable set (an A/B of one change).
  for (const v of opt.variant ?? []) {
    const [name, kv] = v.split(':');
    const [key, value] = kv.split('=');
    subjects[name] = () => launch(name, bin, ['--data-dir', dataFolder()], { ...baseEnv, [key]: value });
  }
  for (const k of Object.keys(subjects)) if (opt.only && !opt.only.split(',').includes(k)) delete subjects[k];
  const samples = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
  try {
    for (const k of Object.keys(subjects)) await subjects[k](false); // warm-up: caches, code caches
    for (let i = 0; i < runs; i++) {
      for (const k of Object.keys(subjects)) samples[k].push(await subjects[k](false));
    }
    if (opt.smaps) for (const k of ['window', 'bare']) await subjects[k]?.(true);
  } finally {
    serve.proc.kill('SIGTERM');
  }
  const med = (k, f) => (samples[k] ? median(samples[k].map((s) => s[f])) : null);
  const s = (v) => (v === null ? '–' : `${(v / 1000).toFixed(2)} s`);
  const mb = (v) => (v === null ? '–' : `${Math.round(v / 2 ** 20)} MB`);
  const cols = Object.keys(subjects);
  const title = { window: 'window', before: 'before', bare: 'bare Wails', chromium: 'Chromium' };
  for (const k of cols) title[k] ??= k;
  console.log(`\nstartup (median of ${runs}, alternating)   ${cols.map((k) => title[k].padStart(10)).join(' ')}`);
  for (const [label, f, fmt] of [
    ['window asked for (wails.Run)', 'run', s],
    ['page navigation starts', 'page', s],
    ['page scripts run (DOMContentLoaded)', 'scripts', s],
    ['window mapped', 'mapped', s],
    ['composer drawn', 'composer', s],
    ['UI at rest', 'rest', s],
    ['PSS at rest', 'pss', mb],
  ]) {
    console.log(`  ${label.padEnd(36)} ${cols.map((k) => fmt(med(k, f)).padStart(10)).join(' ')}`);
  }
  for (const k of Object.keys(samples)) {
    const broke = samples[k].filter((x) => x.rest === null && x.composer === null && x.pss === null).length;
    console.log(`  samples ${k}${broke ? ` (${broke} broke)` : ''} (mapped/composer/rest ms, MB): ${samples[k].map((x) => `${x.mapped ?? '-'}/${x.composer ?? '-'}/${x.rest ?? '-'}/${x.pss === null ? '-' : Math.round(x.pss / 2 ** 20)}`).join(' ')}`);
  }
  const goal = (name, value, limit, fmt) => {
    const ok = value !== null && value <= limit;
    console.log(`  ${name.padEnd(52)} ${(value === null ? '–' : fmt(value)).padStart(10)} ${('≤ ' + fmt(limit)).padStart(10)} ${ok ? '✓' : '✗'}`);
  };
  const ratio = (a, b) => (a === null || b === null ? null : a / b);
  console.log('');
  goal('composer drawn ÷ Chromium app', ratio(med('window', 'composer'), med('chromium', 'composer')), 1.0, (v) => v.toFixed(3));
  const over = med('window', 'rest') === null || med('bare', 'rest') === null ? null : (med('window', 'rest') - med('bare', 'rest')) / 1000;
  goal('UI at rest over bare Wails', over, 0.25, (v) => `+${v.toFixed(2)} s`);
  goal('PSS ÷ bare Wails', ratio(med('window', 'pss'), med('bare', 'pss')), 1.15, (v) => v.toFixed(3));
  console.log(`load average after the startup figures: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

main()
  .catch((err) => {
    console.error('startup bench:', err);
    process.exitCode = 2;
  })
  .finally(() => {
    try {
      rmSync(work, { recursive: true, force: true });
    } catch {
      // best effort
    }
    if (existsSync(work)) execFileSync('rm', ['-rf', work]);
  });
