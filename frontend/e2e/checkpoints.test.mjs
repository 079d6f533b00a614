// Issue 14, checkpoints and review, in real Chromium (Debian's) against `agentdesk serve` with the
// scripted provider and --record: review a turn hunk by hunk, revert one with a reason and read
// that reason in the next model request as recorded; restore a checkpoint after its preview and
// undo the restore. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { apiOf, eventually, launchBrowser, settle, shotsDir, startServer as serve, stopServer, tearDown, tempDir } from './harness.mjs';

let context;
let page;
let pageErrors = [];
let srv;
let api;

const byId = (id) => page.getByTestId(id);
const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `checkpoints-${name}.png`) });
};

/** `agentdesk serve` replaying `responses` and recording every model request to srv.record. */
async function startServer(responses) {
  const dir = tempDir('agentdesk-ckpt-');
  const script = join(dir, 'script.json');
  const record = join(dir, 'requests.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const args = ['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script, '--record', record];
  const s = await serve(args, { env: { HOME: dir }, unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] });
  api = apiOf(s);
  return Object.assign(s, { dir, record, workspace: mkdtempSync(join(dir, 'ws-')) });
}

/** The model requests recorded so far, each as its JSON text. */
function recorded() {
  if (!existsSync(srv.record)) return [];
  return JSON.parse(readFileSync(srv.record, 'utf8')).requests.map((r) => JSON.stringify(r));
}

async function openSession(permissionMode = 'auto') {
  const s = await api('Sessions.Create', { workspace: srv.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode });
  await page.goto(`${srv.base}/?token=${srv.token}#/session/${s.id}`);
  await page.locator(`[data-testid="session-view"][data-session-id="${s.id}"]`).waitFor();
  await byId('composer').waitFor();
  return s;
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

const doneTurns = () => page.locator('[data-testid="turn-status"][data-status="done"]');
async function waitTurns(n) {
  await eventually(async () => (await doneTurns().count()) >= n, `${n} finished turn(s)`, 15_000);
}

// Twenty lines; the turn changes the second and the nineteenth, far enough apart to be two hunks.
const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
const original = lines.join('\n') + '\n';
const changed = lines.map((l, i) => (i === 1 ? 'line 2 CHANGED' : i === 18 ? 'line 19 CHANGED' : l)).join('\n') + '\n';
const REASON = 'keep line nineteen as it was, the footer is generated';

before(async () => {
  context = await launchBrowser('agentdesk-ckpt-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
});

afterEach(async () => {
  await page.goto('about:blank');
  if (srv) await stopServer(srv.proc);
  srv = null;
  const errors = pageErrors.filter((e) => !/WebSocket|ERR_CONNECTION/.test(e));
  pageErrors = [];
  assert.deepEqual(errors, [], 'the page logged errors');
});

after(() => tearDown(context));

test('review a turn: revert one hunk with a reason; the next model request carries the reason', async () => {
  srv = await startServer([
    { text: 'Changing the file.', tool_calls: [{ name: 'write', input: { path: 'app.txt', content: changed } }] },
    { text: 'Done.' },
    { text: 'Understood.' },
  ]);
  const file = join(srv.workspace, 'app.txt');
  writeFileSync(file, original);
  await openSession();
  await send('Change the app');
  await waitTurns(1);

  // The transcript shows the checkpoint before the turn and the turn's changes.
  await byId('checkpoint-marker').first().waitFor();
  const turnChanges = byId('turn-changes');
  assert.match(await turnChanges.textContent(), /app\.txt/);
  await turnChanges.getByTestId('review-changes').click();

  const view = byId('changes-view');
  await view.waitFor();
  const reviewed = view.locator('[data-testid="review-file"][data-path="app.txt"]');
  const hunks = reviewed.getByTestId('diff-hunk');
  await eventually(async () => (await hunks.count()) === 2, 'two hunks of app.txt');
  await shot('01-changes');

  await hunks.nth(0).getByTestId('hunk-accept').click();
  await eventually(async () => (await hunks.nth(0).getAttribute('data-state')) === 'accepted', 'the first hunk accepted');
  await hunks.nth(1).getByTestId('hunk-reason').fill(REASON);
  await hunks.nth(1).getByTestId('hunk-revert').click();
  await eventually(async () => (await hunks.nth(1).getAttribute('data-state')) === 'reverted', 'the second hunk reverted');
  await shot('02-hunk-reverted');

  // Only that hunk went back, on the real file.
  const expected = lines.map((l, i) => (i === 1 ? 'line 2 CHANGED' : l)).join('\n') + '\n';
  assert.equal(readFileSync(file, 'utf8'), expected);

  await byId('pane-back').click();
  const marker = page.locator('[data-testid="review-marker"][data-action="revert"]');
  await marker.waitFor();
  assert.equal(await marker.getByTestId('review-marker-reason').textContent(), `“${REASON}”`);

  const before = recorded().length;
  assert.ok(before >= 2 && !recorded().some((r) => r.includes(REASON)), 'the reason is not sent before the next turn');
  await send('Carry on');
  await waitTurns(2);
  const next = await eventually(() => recorded()[before], 'the next model request to be recorded');
  assert.ok(next.includes(REASON), `the next model request must carry the reason: ${next}`);
  assert.ok(next.includes('app.txt') && next.includes('reverted part of it'), `and say what was reverted: ${next}`);
});

test('restore: a preview lists the files and their diff before confirming; the restore is undone the same way', async () => {
  srv = await startServer([
    {
      text: 'Editing.',
      tool_calls: [
        { name: 'write', input: { path: 'app.txt', content: changed } },
        { name: 'write', input: { path: 'new.txt', content: 'new\n' } },
      ],
    },
    { text: 'Done.' },
  ]);
  const file = join(srv.workspace, 'app.txt');
  writeFileSync(file, original);
  await openSession();
  await send('Edit and add a file');
  await waitTurns(1);

  await byId('checkpoint-marker').first().getByTestId('checkpoint-restore').click();
  const view = byId('restore-view');
  await view.waitFor();
  await view.locator('[data-testid="restore-file"][data-path="app.txt"]').getByTestId('diff-hunk').first().waitFor();
  assert.deepEqual(await view.getByTestId('restore-delete').allTextContents(), ['new.txt']);
  await shot('03-restore-preview');
  // Nothing changes before the person confirms.
  assert.equal(readFileSync(file, 'utf8'), changed);
  await view.getByTestId('restore-confirm').click();

  const restored = byId('restore-marker');
  await restored.waitFor();
  assert.equal(readFileSync(file, 'utf8'), original);
  assert.ok(!existsSync(join(srv.workspace, 'new.txt')), 'the file the turn created is gone');

  await restored.getByTestId('restore-undo').click();
  const undo = byId('restore-view');
  await undo.locator('[data-testid="restore-file"][data-path="app.txt"]').waitFor();
  await undo.getByTestId('restore-confirm').click();
  await eventually(async () => (await byId('restore-marker').count()) === 2, 'the undo in the transcript');
  assert.equal(readFileSync(file, 'utf8'), changed);
  assert.equal(readFileSync(join(srv.workspace, 'new.txt'), 'utf8'), 'new\n');
  await shot('04-restore-undone');

  // Read back from the session's log, the transcript shows the same checkpoints and restores.
  await page.reload();
  await byId('restore-marker').first().waitFor();
  assert.equal(await byId('restore-marker').count(), 2);
  assert.equal(await byId('checkpoint-marker').count(), 1);
  assert.deepEqual(await byId('checkpoint-files').allTextContents(), ['app.txt', '+new.txt', 'app.txt, +new.txt', 'app.txt, −new.txt', 'app.txt, +new.txt']);
});

test('review before apply (Ask): reject one hunk with a reason; only the other is written, and the model hears why in the same turn', async () => {
  srv = await startServer([
    { text: 'Changing the file.', tool_calls: [{ name: 'write', input: { path: 'app.txt', content: changed } }] },
    { text: 'I will leave line nineteen alone.' },
  ]);
  // Settings: the store's usage against its quota; a quota of 1.5 GB and review before apply saved.
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('nav-settings').click();
  const section = byId('checkpoints-section');
  await section.waitFor();
  assert.match(await byId('checkpoints-usage').textContent(), /of 2 GB · checkpoints: 0/);
  await byId('checkpoints-quota').fill('1.5');
  await byId('checkpoints-review-before-apply').check();
  await byId('checkpoints-save').click();
  await eventually(async () => (await api('Settings.Get')).checkpoints.reviewBeforeApply, 'the checkpoint settings saved');
  const saved = (await api('Settings.Get')).checkpoints;
  assert.equal(saved.quota, 1.5 * 2 ** 30);
  // The usage line is read again after the save answers: wait for it rather than read it once.
  await eventually(async () => /of 1\.5 GB/.test(await byId('checkpoints-usage').textContent()), 'the usage against the new quota');
  const file = join(srv.workspace, 'app.txt');
  writeFileSync(file, original);
  await openSession('ask');
  await send('Change the app');

  const staged = byId('staged-review');
  await staged.waitFor();
  const hunks = staged.getByTestId('diff-hunk');
  await eventually(async () => (await hunks.count()) === 2, 'two staged hunks');
  // Nothing is written before the person decides.
  assert.equal(readFileSync(file, 'utf8'), original);
  await hunks.nth(1).getByTestId('staged-hunk-toggle').click();
  await hunks.nth(1).getByTestId('staged-hunk-reason').fill(REASON);
  assert.equal(await byId('approval-allow-once').textContent(), 'Apply 1 of 2 hunks');
  await shot('05-review-before-apply');
  await byId('approval-allow-once').click();
  await waitTurns(1);

  assert.equal(readFileSync(file, 'utf8'), lines.map((l, i) => (i === 1 ? 'line 2 CHANGED' : l)).join('\n') + '\n');
  const requests = recorded();
  assert.equal(requests.length, 2, 'the rejection is heard in the same turn');
  assert.ok(requests[1].includes(REASON), `the tool result carries the reason: ${requests[1]}`);
});
