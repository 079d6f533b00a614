// What the browser end-to-end suites share: the agentdesk server they start, the API they call as
// another client, the Chromium they drive, and clean-up. Not a test file itself (node --test picks
// *.test.mjs only).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const shotsDir = resolve(here, '../../build/screenshots');
const bin = process.env.AGENTDESK_BIN;
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// The server must pick its language and data folder from the test, not from the machine.
const MACHINE_ENV = ['LC_ALL', 'LC_MESSAGES', 'LANGUAGE', 'AGENTDESK_DATA_DIR'];

const temps = [];
const servers = [];

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/**
 * Starts `agentdesk serve` on a free port with `args` (data folder, provider, …); resolves with
 * {base, token, proc, output} once it prints its address. `unset` names more variables to drop.
 */
export function startServer(args, { env: extraEnv = {}, unset = [] } = {}) {
  const env = { ...process.env, LANG: 'en_US.UTF-8', ...extraEnv };
  for (const k of [...MACHINE_ENV, ...unset]) delete env[k];
  const proc = spawn(bin, ['serve', '--addr', '127.0.0.1:0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(proc);
  const s = { proc, output: '' };
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no address in 20 s:\n${s.output}`)), 20_000);
    proc.stdout.on('data', (chunk) => {
      s.output += chunk.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)/.exec(s.output);
      if (m) {
        clearTimeout(timer);
        resolvePromise(Object.assign(s, { base: m[1], token: m[2] }));
      }
    });
    proc.stderr.on('data', (chunk) => (s.output += chunk.toString()));
    proc.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${s.output}`));
    });
  });
}

/** SIGTERM, then SIGKILL after 5 s; its 'exit' no longer counts as a failed start. */
export async function stopServer(proc) {
  if (proc.exitCode !== null) return;
  proc.removeAllListeners('exit');
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  const killer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

/** The app API over HTTP, as another client would call it, with the bearer token. */
export function apiOf(server) {
  return async (method, req = {}) => {
    const res = await fetch(`${server.base}/api/${method}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(req),
    });
    const text = await res.text();
    assert.equal(res.status, 200, `${method}: ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Checks the binaries, then starts Chromium with a fresh profile; `options` add to the defaults. */
export async function launchBrowser(profilePrefix, options = {}) {
  assert.ok(bin, 'set AGENTDESK_BIN to the agentdesk binary (go build -o /tmp/agentdesk . in the repo root)');
  assert.ok(existsSync(bin), `AGENTDESK_BIN=${bin} does not exist`);
  assert.ok(existsSync(chromiumPath), `${chromiumPath} not found: apt-get install chromium`);
  mkdirSync(shotsDir, { recursive: true });
  const context = await chromium.launchPersistentContext(tempDir(profilePrefix), {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    ...options,
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Closes the browser, stops every server started here, and removes the temp folders. */
export async function tearDown(context) {
  await context?.close().catch(() => {});
  for (const proc of servers) await stopServer(proc);
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}

/** Resolves when the page's finite animations and transitions are done (spinners run forever). */
export function settle(page) {
  return page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  );
}

export async function eventually(fn, what, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One Chromium page for a whole test file, with what every suite does around its tests: the page
 * starts on about:blank after each test, the server the test started (set `ui.server`) is
 * stopped, and an error the page logged fails the test. `ignoreConsole` matches console errors
 * a suite expects (a refused request, say). Screenshots are `<prefix>-<name>.png`.
 */
export function browserSuite(prefix, { ignoreConsole } = {}) {
  const ui = { context: null, page: null, server: null, errors: [] };
  before(async () => {
    ui.context = await launchBrowser(`agentdesk-${prefix}-browser-`, { reducedMotion: 'reduce' });
    ui.page = ui.context.pages()[0] ?? (await ui.context.newPage());
    ui.page.on('pageerror', (err) => ui.errors.push(String(err)));
    ui.page.on('console', (msg) => {
      if (msg.type() === 'error' && !ignoreConsole?.test(msg.text())) ui.errors.push(msg.text());
    });
  });
  afterEach(async () => {
    await ui.page.goto('about:blank');
    if (ui.server) await stopServer(ui.server.proc);
    ui.server = null;
    const errors = ui.errors;
    ui.errors = [];
    assert.deepEqual(errors, [], 'the page logged errors');
  });
  after(() => tearDown(ui.context));
  ui.byId = (id) => ui.page.getByTestId(id);
  ui.shot = async (name) => {
    await settle(ui.page);
    await ui.page.screenshot({ path: join(shotsDir, `${prefix}-${name}.png`) });
  };
  /** Opens the app served by `server`, and the session `sessionId` in it when given. */
  ui.open = async (server, sessionId) => {
    await ui.page.goto(`${server.base}/?token=${server.token}`);
    await ui.byId('app-shell').waitFor();
    if (!sessionId) return;
    await ui.page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"] [data-testid="session-select"]`).click();
    await ui.page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
  };
  return ui;
}
