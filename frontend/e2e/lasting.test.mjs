// Never lost, end-to-end: real Chromium against `agentdesk serve --provider scripted`. A decision
// that waits when the server is killed comes back, by the same id, when it starts again, and the
// turn goes on once it is answered; a long turn pauses at its step limit and goes on when the
// person says so. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { apiOf, eventually, launchBrowser, settle, shotsDir, startServer, stopServer, tearDown, tempDir } from './harness.mjs';

let context;
let page;
let pageErrors = [];
let srv;

// serve starts `agentdesk serve` over the folder dir (its data, script and workspace stay there
// across restarts).
async function serve(dir, responses) {
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  mkdirSync(join(dir, 'ws'), { recursive: true });
  const s = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  return Object.assign(s, { api: apiOf(s), workspace: join(dir, 'ws') });
}

const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `lasting-${name}.png`) });
};
const byId = (id) => page.getByTestId(id);

async function open(s, sessionId) {
  await page.goto(`${s.base}/?token=${s.token}`);
  await byId('app-shell').waitFor();
  await page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"] [data-testid="session-select"]`).click();
  await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

before(async () => {
  context = await launchBrowser('agentdesk-lasting-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && !/Failed to load resource|net::ERR/.test(msg.text()) && pageErrors.push(msg.text()));
});

afterEach(async () => {
  await page.goto('about:blank');
  if (srv) await stopServer(srv.proc);
  srv = null;
  const errors = pageErrors;
  pageErrors = [];
  assert.deepEqual(errors, [], 'the page logged errors');
});

after(() => tearDown(context));

test('an approval waiting when serve is killed comes back after the restart, and answering it finishes the turn', async () => {
  const dir = tempDir('agentdesk-lasting-');
  const responses = [
    { text: 'I will write the notes file.', tool_calls: [{ name: 'bash', input: { command: 'echo kept > notes.txt' } }] },
    { text: 'Wrote notes.txt.' },
  ];
  srv = await serve(dir, responses);
  const s = await srv.api('Sessions.Create', { workspace: srv.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'ask' });
  await open(srv, s.id);
  await send('Write the notes');
  await byId('composer-mode-approval').waitFor();
  const [before] = await srv.api('Decisions.Pending', { id: s.id });
  assert.equal(before.kind, 'approval');

  srv.proc.removeAllListeners('exit');
  const killed = new Promise((r) => srv.proc.once('exit', r));
  srv.proc.kill('SIGKILL');
  await killed;
  assert.equal(existsSync(join(srv.workspace, 'notes.txt')), false, 'the unanswered command ran');

  srv = await serve(dir, responses);
  // The turn is taken up as the server starts, and asks again as soon as it has read itself back.
  const again = await eventually(async () => (await srv.api('Decisions.Pending', { id: s.id }))[0], 'the decision asked again', 10_000)
    .catch((e) => assert.fail(`${e.message}\n${srv.output}`));
  assert.equal(again?.id, before.id, 'the same decision waits after the restart');
  assert.deepEqual(again.payload, before.payload);
  await open(srv, s.id);
  await byId('composer-mode-approval').waitFor();
  assert.match(await byId('composer').textContent(), /echo kept > notes\.txt/);
  await shot('01-approval-after-restart');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Wrote notes.txt.').waitFor();
  assert.equal(readFileSync(join(srv.workspace, 'notes.txt'), 'utf8').trim(), 'kept');
});

test('a 60-step turn pauses at a limit of 50, and Continue carries it to its end', async () => {
  const dir = tempDir('agentdesk-lasting-');
  const steps = Array.from({ length: 59 }, (_, i) => ({ tool_calls: [{ name: 'glob', input: { pattern: `*.step${i}` } }] }));
  srv = await serve(dir, [...steps, { text: 'All sixty steps done.' }]);
  await srv.api('Settings.SetStepLimit', { value: '50' });
  const s = await srv.api('Sessions.Create', { workspace: srv.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'full' });
  await open(srv, s.id);
  await send('Take sixty steps');
  await byId('composer-mode-continue').waitFor({ timeout: 30_000 });
  assert.equal(await byId('composer-mode-title').textContent(), 'Paused after 50 model requests');
  await shot('02-paused-at-the-step-limit');
  await byId('continue-continue').click();
  await byId('msg-assistant').getByText('All sixty steps done.').waitFor({ timeout: 30_000 });
  assert.equal(await byId('composer').getAttribute('data-mode'), 'idle');
});
