// Browser end-to-end: the virtualized session list and transcript in real Chromium against
// `agentdesk serve`: only the rows in view are in the page, arrow keys walk past them, the next
// page of the list comes as the person scrolls, and the transcript offers the way back to the
// newest row once they scrolled up.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { apiOf, eventually, launchBrowser, shotsDir, startServer, tearDown, tempDir } from './harness.mjs';

const SESSIONS = 130; // more than two pages of the list (50 a page)
let srv;
let api;
let context;
let page;
let workspace;
const pageErrors = [];

const byId = (id) => page.getByTestId(id);
const rows = () => page.getByTestId('session-item');
/** The row that holds keyboard focus: its place in the list (aria-posinset), or null. */
const focusedRow = () => page.evaluate(() => document.activeElement?.closest('[data-testid="session-item"]')?.getAttribute('aria-posinset') ?? null);

before(async () => {
  const dir = tempDir('agentdesk-virtual-');
  const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join('\n\n');
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ responses: [{ text: long }] }));
  srv = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', join(dir, 'script.json')], {
    env: { HOME: dir },
    unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'],
  });
  api = apiOf(srv);
  workspace = mkdtempSync(join(dir, 'ws-'));
  for (let i = 1; i <= SESSIONS; i++) await api('Sessions.Create', { workspace, title: `Session ${String(i).padStart(3, '0')}` });
  context = await launchBrowser('agentdesk-virtual-browser-');
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
});

after(() => tearDown(context));

test('the session list puts only the rows in view in the page, pages in as it scrolls, and arrow keys walk past the mounted rows', async () => {
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await rows().first().waitFor();
  const mounted = await rows().count();
  assert.ok(mounted > 5 && mounted < 50, `rows mounted of the first page of 50: ${mounted}`);
  assert.equal(await rows().first().getAttribute('aria-setsize'), '-1', 'more pages follow: the size is not known yet');

  // Scrolling to the end asks for the next pages; the page still holds only the rows in view.
  const scroller = byId('sessions-scroll');
  // The last page's arrival lengthens the list under the scroller: it scrolls to the end again
  // until the last row in view is the last session.
  await eventually(async () => {
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const last = rows().last();
    const [size, place] = [await last.getAttribute('aria-setsize'), await last.getAttribute('aria-posinset')];
    return size === String(SESSIONS) && place === String(SESSIONS);
  }, 'every page of the list, scrolled to its end');
  assert.equal(await rows().last().getByTestId('session-title').textContent(), 'Session 001');
  assert.ok((await rows().count()) < 50, 'rows mounted at the end of the list');

  // Back at the top, the arrow keys walk down past every row mounted at first.
  await scroller.evaluate((el) => (el.scrollTop = 0));
  // The rows at the top mount with the render the scroll event brings: until then the first row
  // in the page is one from the end, and focusing it would start the walk there.
  await eventually(async () => (await rows().first().getAttribute('aria-posinset')) === '1', 'the first row mounted again');
  await rows().first().getByTestId('session-select').focus();
  // One press at a time: a press that arrives while the next row is still being scrolled in is
  // lost (a held key repeats faster than a row mounts), which this test does not cover.
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('ArrowDown');
    await eventually(async () => (await focusedRow()) === String(i + 2), `focus on row ${i + 2}`);
  }
  const focused = page.locator('[data-testid="session-item"][aria-posinset="61"]');
  assert.equal(await focused.getByTestId('session-title').textContent(), `Session ${String(SESSIONS - 60).padStart(3, '0')}`);
  assert.ok(await focused.isVisible(), 'the focused row is in view');
  // The row keeps focus (it stays mounted) while the person scrolls it out of view.
  await scroller.evaluate((el) => (el.scrollTop = 0));
  await page.waitForTimeout(200);
  assert.equal(await focusedRow(), '61');
  await page.keyboard.press('ArrowUp');
  await eventually(async () => (await focusedRow()) === '60', 'focus on the 60th row');
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid="session-heading"]`).getByText(`Session ${String(SESSIONS - 59).padStart(3, '0')}`, { exact: true }).waitFor();
  await page.screenshot({ path: join(shotsDir, 'virtual-01-list.png') });
  assert.deepEqual(pageErrors, []);
});

test('a deep link opens its session; scrolled up, the transcript offers the way back to the newest row', async () => {
  const [newest] = (await api('Sessions.List', {})).sessions;
  await page.goto(`${srv.base}/?token=${srv.token}#/session/${newest.id}`);
  await page.locator(`[data-testid="session-view"][data-session-id="${newest.id}"]`).waitFor();
  await byId('composer-input').fill('Tell me everything');
  await byId('composer-input').press('Enter');
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached' });
  const transcript = byId('transcript');
  await eventually(() => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 60), 'the view at the bottom of the answer');
  assert.equal(await byId('jump-latest').count(), 0, 'no way back while at the bottom');
  assert.equal(await page.locator('[data-testid="transcript-row"][data-last]').count(), 1, 'the last row is in the page');

  await transcript.evaluate((el) => (el.scrollTop = 0));
  await byId('jump-latest').waitFor();
  assert.equal(await byId('jump-latest').textContent(), 'Jump to latest');
  await page.screenshot({ path: join(shotsDir, 'virtual-02-jump-latest.png') });
  await byId('jump-latest').click();
  await eventually(() => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 60), 'the view back at the bottom');
  await byId('jump-latest').waitFor({ state: 'detached' });
  assert.deepEqual(pageErrors, []);
});
