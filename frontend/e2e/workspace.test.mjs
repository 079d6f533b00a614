// The workspace is chosen, never assumed: real Chromium against `agentdesk serve`, with HOME a
// temp folder of its own. The folder field is on screen at first run, empty; the browser's folder
// dialog lists folder names and fills the field; the root is refused with its reason; the home
// folder itself is asked about first. Screenshots go to <repo>/build/screenshots/workspace-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, startServer as serve, tempDir } from './harness.mjs';

const ui = browserSuite('workspace', { ignoreConsole: /the server responded with a status of 4\d\d/ });
const { byId, shot } = ui;

let api;

/** A server whose HOME holds a project folder, a hidden folder and a file; scripted when responses are given. */
async function startServer(responses) {
  const home = tempDir('agentdesk-workspace-');
  mkdirSync(join(home, 'proj'));
  mkdirSync(join(home, '.secrets'));
  writeFileSync(join(home, 'notes.txt'), 'not a folder');
  const args = ['--data-dir', join(home, '.data')];
  if (responses) {
    const script = join(home, '.script.json');
    writeFileSync(script, JSON.stringify({ responses }));
    args.push('--provider', 'scripted', '--script', script);
  }
  const s = await serve(args, { env: { HOME: home }, unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] });
  api = apiOf(s);
  return Object.assign(s, { home });
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

/** The element is inside the viewport as it is, without scrolling anything. */
async function onScreen(id) {
  const box = await byId(id).boundingBox();
  const { width, height } = ui.page.viewportSize();
  assert.ok(box, `${id} is laid out`);
  assert.ok(box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width, `${id} on screen at ${width}×${height}: ${JSON.stringify(box)}`);
}

test('first run: the folder field is on screen above the onboarding fold, empty, at 1280×800 and smaller', async () => {
  ui.server = await startServer(null);
  for (const [width, height] of [
    [1280, 800],
    [1024, 640],
    [800, 600],
  ]) {
    await ui.page.setViewportSize({ width, height });
    await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
    await byId('onboarding').waitFor();
    await byId('new-task-workspace').waitFor();
    await onScreen('new-task-workspace');
    await onScreen('workspace-browse');
    assert.equal(await byId('new-task-workspace').inputValue(), '', 'no folder is assumed');
    assert.notEqual(await byId('new-task-workspace').getAttribute('placeholder'), ui.server.home);
    if (width === 1280) await shot('01-first-run');
  }
});

test('the folder dialog lists folder names only and fills the field; / is refused with its reason; home asks first', async () => {
  ui.server = await startServer([{ text: 'In the project.' }, { text: 'In the home folder.' }, { text: 'spare' }]);
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('new-task-composer').waitFor();

  // Sending without a folder says so, and creates nothing.
  await send('Fix the build');
  assert.match(await byId('composer-error').textContent(), /Choose a folder/);
  assert.deepEqual((await api('Sessions.List')).sessions, []);

  await byId('workspace-browse').click();
  const dialog = byId('folder-dialog');
  await dialog.waitFor();
  await ui.page.locator(`[data-testid="folder-dialog-entry"][data-path="${join(ui.server.home, 'proj')}"]`).waitFor();
  const names = await dialog.getByTestId('folder-dialog-entry').allTextContents();
  assert.deepEqual(names, ['proj'], 'folders only: no file, no hidden folder');
  await shot('02-folder-dialog');
  await dialog.getByText('proj', { exact: true }).click();
  await ui.page.waitForFunction((p) => document.querySelector('[data-testid="folder-dialog-path"]')?.value === p, join(ui.server.home, 'proj'));
  await byId('folder-dialog-choose').click();
  assert.equal(await dialog.count(), 0);
  assert.equal(await byId('new-task-workspace').inputValue(), join(ui.server.home, 'proj'));

  // The root is refused, in words that say why; the draft stays.
  await byId('new-task-workspace').fill('/');
  await byId('composer-input').press('Enter');
  await ui.page.waitForFunction(() => /root or a system folder/.test(document.querySelector('[data-testid="composer-error"]')?.textContent ?? ''));
  assert.equal(await byId('composer-input').inputValue(), 'Fix the build');
  assert.deepEqual((await api('Sessions.List')).sessions, []);
  await shot('03-root-refused');

  // In the dialog the root can be passed through but not chosen.
  await byId('workspace-browse').click();
  await dialog.waitFor();
  await byId('folder-dialog-refusal').waitFor();
  assert.equal(await byId('folder-dialog-choose').isDisabled(), true);
  await ui.page.keyboard.press('Escape');
  assert.equal(await dialog.count(), 0);

  // The home folder itself: the composer asks, naming what the agent could read.
  await byId('new-task-workspace').fill('~');
  await byId('composer-input').press('Enter');
  const ask = byId('home-confirm');
  await ask.waitFor();
  assert.match(await ask.textContent(), /~\/\.ssh/);
  assert.deepEqual((await api('Sessions.List')).sessions, []);
  await onScreen('home-confirm-button');
  await shot('04-home-confirm');
  await byId('home-confirm-button').click();
  await byId('session-view').waitFor();
  const [created] = (await api('Sessions.List')).sessions;
  assert.equal(created.workspace, ui.server.home);

  // The next new task starts from the most recent folder, and offers it among the recent ones.
  await byId('new-session').click();
  await ui.page.waitForFunction((p) => document.querySelector('[data-testid="new-task-workspace"]')?.value === p, ui.server.home);
  const recent = await byId('workspace-recent').locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.deepEqual(recent, [ui.server.home]);
});

test('the folder listing answers names under an absolute path and refuses a relative one', async () => {
  ui.server = await startServer(null);
  const listing = await api('Folders.List', { path: ui.server.home, hidden: true });
  assert.deepEqual(listing.folders.map((f) => f.name).sort(), ['.data', '.secrets', 'proj']);
  assert.equal(listing.refusal, undefined);
  const root = await api('Folders.List', { path: '/' });
  assert.equal(root.refusal, 'WORKSPACE_SYSTEM_FOLDER');
  await assert.rejects(api('Folders.List', { path: 'proj' }), /WORKSPACE_RELATIVE/);
  await assert.rejects(api('Sessions.Create', { workspace: '/' }), /WORKSPACE_SYSTEM_FOLDER/);
  await assert.rejects(api('Sessions.Create', { workspace: ui.server.home }), /WORKSPACE_HOME_NEEDS_CONFIRMATION/);
});
