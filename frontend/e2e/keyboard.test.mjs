// The keyboard map, in real Chromium (Debian's) against `agentdesk serve` with the
// scripted provider. A whole task from an empty data folder with the keyboard only — no mouse
// event reaches the page: the shortcuts sheet and Settings, a new task in a folder typed in, an
// approval rejected with a reason, one left with Esc and approved with Ctrl+Enter, and a restore.
// Run with AGENTDESK_BIN=/path/to/agentdesk node --test e2e/keyboard.test.mjs.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { browserSuite, eventually, settle, startServer as serve, tempDir } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const ui = browserSuite('keyboard', { ignoreConsole: /WebSocket|ERR_CONNECTION/ });
const { byId } = ui;

async function startServer(responses) {
  const dir = tempDir('agentdesk-kbd-');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const s = await serve(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], {
    env: { HOME: dir },
    unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'],
  });
  return Object.assign(s, { workspace: mkdtempSync(join(dir, 'ws-')) });
}

/** The data-testid of the focused element (or of its nearest marked ancestor). */
const focused = () => ui.page.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

/** Presses Tab (or Shift+Tab) until the focus is on `testId`; fails after `max` presses. */
async function tabTo(testId, { back = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    if ((await focused()) === testId) return;
    await ui.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  assert.equal(await focused(), testId, `${back ? 'Shift+Tab' : 'Tab'} never reached ${testId}`);
}

/** axe-core's serious and critical violations on the page as it is, in the light and the dark scheme. */
async function axeSerious() {
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await ui.page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await settle(ui.page);
    if (!(await ui.page.evaluate(() => 'axe' in window))) await ui.page.addScriptTag({ content: axeSource });
    const violations = await ui.page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
    });
    found.push(...violations.map((v) => `[${scheme}] ${v}`));
  }
  await ui.page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  return found;
}

const composerMode = () => byId('composer').getAttribute('data-mode');

test('a whole task with the keyboard only: shortcuts, a new task, an approval with a reason, Esc, approve, and a restore', async () => {
  ui.server = await startServer([
    { text: 'I will clean the build folder first.', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build && echo cleaned' } }] },
    { text: 'Understood. I will edit the file instead.', tool_calls: [{ name: 'bash', input: { command: 'echo changed > app.txt' } }] },
    { text: 'Done: app.txt says changed.' },
    { text: 'spare' },
  ]);
  const { page } = ui;
  writeFileSync(join(ui.server.workspace, 'app.txt'), 'original\n');
  // Any mouse or pointer event the page sees fails the test.
  await page.addInitScript(() => {
    window.__mouse = [];
    for (const type of ['mousedown', 'mouseup', 'pointerdown', 'pointerup', 'click', 'auxclick', 'contextmenu']) {
      window.addEventListener(type, (e) => e.isTrusted && e.detail > 0 && window.__mouse.push(type), true);
    }
  });
  await page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('new-task-composer').waitFor();

  // The focus starts in the message box; Shift+Tab there moves it back, it does not change the mode.
  await eventually(async () => (await focused()) === 'composer-input', 'the focus in the message box');
  const modeBefore = await byId('mode-selector').textContent();
  await page.keyboard.press('Shift+Tab');
  assert.notEqual(await focused(), 'composer-input');
  assert.equal(await byId('mode-selector').textContent(), modeBefore);

  // Ctrl+Comma opens Settings, whose Keyboard card lists the map; ? opens the sheet, Esc closes it.
  await page.keyboard.press('Control+Comma');
  await byId('settings-page').waitFor();
  const rows = byId('settings-keymap').getByTestId('keymap-row');
  assert.ok((await rows.count()) >= 9);
  assert.match(await byId('settings-keymap').locator('[data-action="approve"]').textContent(), /Ctrl\+Enter/);
  const beforeSheet = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 60));
  await page.keyboard.press('Shift+Slash');
  await byId('shortcuts-sheet').waitFor();
  assert.equal(await focused(), 'shortcuts-close');
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.querySelector('[data-testid="shortcuts-sheet"]').contains(document.activeElement)), 'the focus stays in the sheet');
  await ui.shot('01-sheet');
  assert.deepEqual(await axeSerious(), [], 'the shortcuts sheet has no serious violation');
  await page.keyboard.press('Escape');
  await byId('shortcuts-sheet').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 60)), beforeSheet, 'the focus is back where it was');

  // Ctrl+N: a new session, the focus in its message box. The folder is typed in.
  await page.keyboard.press('Control+n');
  await byId('new-task-composer').waitFor();
  await eventually(async () => (await focused()) === 'composer-input', 'the focus in the new task');
  await tabTo('new-task-workspace', { back: true });
  await page.keyboard.type(ui.server.workspace);
  await tabTo('composer-input');
  await page.keyboard.type('Tidy up the project');
  await page.keyboard.press('Enter');

  // The approval arrives while the message box has the focus: it takes it.
  await byId('composer-mode-approval').waitFor();
  await eventually(async () => page.evaluate(() => document.querySelector('[data-testid="composer"]').contains(document.activeElement)), 'the focus in the approval');
  assert.match(await byId('approval-summary').textContent(), /rm -rf build/);
  // Ctrl+Shift+Backspace: reject, the focus in the reason; Enter sends it.
  await page.keyboard.press('Control+Shift+Backspace');
  assert.equal(await focused(), 'approval-reason');
  await page.keyboard.type('Keep the build folder');
  await ui.shot('02-reason');
  await page.keyboard.press('Enter');
  const rejected = page.locator('[data-testid="tool-card"][data-tool="bash"]').first();
  await rejected.getByTestId('tool-error').getByText('Keep the build folder').waitFor();

  // The next approval: Esc leaves it (the turn keeps running), Ctrl+K comes back, Ctrl+Enter approves.
  await page.locator('[data-testid="composer-mode-approval"]').waitFor();
  await eventually(async () => /echo changed/.test((await byId('approval-summary').textContent()) ?? ''), 'the second approval');
  await eventually(async () => page.evaluate(() => document.querySelector('[data-testid="composer"]').contains(document.activeElement)), 'the focus in the second approval');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
  assert.equal(await composerMode(), 'approval', 'Esc leaves the decision waiting');
  await page.keyboard.press('Control+k');
  assert.ok(await page.evaluate(() => document.querySelector('[data-testid="composer"]').contains(document.activeElement)));
  await page.keyboard.press('Control+Enter');
  await byId('msg-assistant').getByText('Done: app.txt says changed.').waitFor();
  await eventually(async () => (await composerMode()) === 'idle', 'the idle box');
  assert.equal(readFileSync(join(ui.server.workspace, 'app.txt'), 'utf8'), 'changed\n');

  // The restore: back from the message box to the turn's checkpoint, Enter, then confirm.
  await tabTo('composer-input');
  await tabTo('checkpoint-restore', { back: true, max: 80 });
  await page.keyboard.press('Enter');
  await byId('restore-view').waitFor();
  await tabTo('restore-confirm');
  await ui.shot('03-restore');
  await page.keyboard.press('Enter');
  await byId('restore-marker').waitFor();
  await eventually(() => readFileSync(join(ui.server.workspace, 'app.txt'), 'utf8') === 'original\n', 'the file restored');
  assert.ok(existsSync(join(ui.server.workspace, 'app.txt')));

  assert.deepEqual(await page.evaluate(() => window.__mouse), [], 'no mouse event');
});
