// Browser end-to-end: scrolling back through a long session in real Chromium against
// `agentdesk serve`. The transcript keeps a window of log pages around the view: scrolled up to
// the start, it holds a bounded number of rows, the row in view stays where it was as pages come
// in above and go below, the dropped pages come back by their log entries as the person scrolls
// down, and the jumps to the start and to the newest end each read one page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { browserSuite, eventually, startServer, tempDir } from './harness.mjs';

const ENTRIES = 3000; // 15 pages of 200 log entries
const WINDOW_ROWS = 1200; // the window's bound (1,000 items) and the page just put in

const ui = browserSuite('scrollback');

/**
 * A data folder with one session of ENTRIES log entries, the person's messages and the answers
 * in turn, imported through the CLI (a session exported, lengthened, imported again).
 */
function longSession() {
  const dir = tempDir('agentdesk-scrollback-');
  const data = join(dir, 'data');
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const bin = process.env.AGENTDESK_BIN;
  const run = (...args) => execFileSync(bin, [...args, '--data-dir', data], { env: { ...process.env, HOME: dir }, maxBuffer: 1 << 26 }).toString();
  const { id } = JSON.parse(run('sessions', 'create', '--workspace', workspace, '--json'));
  const exported = JSON.parse(run('sessions', 'export', id));
  run('sessions', 'delete', id);
  for (let seq = exported.events.length + 1; seq <= ENTRIES; seq++) {
    const type = seq % 2 === 0 ? 'message.user' : 'message.assistant';
    exported.events.push({ seq, type, payload: { turn_id: `t${Math.ceil(seq / 20)}`, text: `Message ${seq}` }, created_at: exported.session.created_at });
  }
  const file = join(dir, 'long.json');
  writeFileSync(file, JSON.stringify(exported));
  run('sessions', 'import', file);
  return { dir, data, id };
}

/** What the transcript holds and shows: its first log entry, its rows, the top row in view and where it is. */
const state = () =>
  ui.page.getByTestId('transcript').evaluate((el) => {
    const box = el.getBoundingClientRect();
    const rows = [...el.querySelectorAll('[data-testid="transcript-row"]')];
    const top = rows
      .map((r) => ({ text: r.textContent.trim(), y: r.getBoundingClientRect().top - box.top, h: r.getBoundingClientRect().height }))
      .filter((r) => r.y >= 0 && r.h > 0)
      .sort((a, b) => a.y - b.y)[0];
    return { first: Number(el.dataset.first), rows: Number(el.dataset.rows), top, fromEnd: el.scrollHeight - el.scrollTop - el.clientHeight };
  });

/** Where the row showing `text` stands in the view now (null: not mounted). */
const rowAt = (text) =>
  ui.page.getByTestId('transcript').evaluate((el, text) => {
    const row = [...el.querySelectorAll('[data-testid="transcript-row"]')].find((r) => r.textContent.trim() === text);
    return row ? row.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
  }, text);

test('scrolled back to the start of a 3,000-entry session, the transcript holds a bounded window; the row in view stays put; the way back and the jumps read by log entry', async () => {
  const { dir, data, id } = longSession();
  ui.server = await startServer(['--data-dir', data], { env: { HOME: dir }, unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] });
  const requests = [];
  ui.page.on('request', (r) => r.url().includes('Sessions.Transcript') && requests.push(JSON.parse(r.postData() ?? '{}')));
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}#/session/${id}`);
  const transcript = ui.byId('transcript');
  await transcript.waitFor();
  await eventually(async () => (await state()).first === ENTRIES - 199, 'the newest page shown');
  // The view lands at the bottom (the virtualizer corrects its scroll to the end for a while as
  // rows are measured); the person scrolls up after that. A scroll up within the first half
  // second after opening can lose its place when the first older page comes in: not this test's.
  await eventually(async () => (await state()).fromEnd < 2, 'the view at the bottom');
  await ui.page.waitForTimeout(2000);
  // As a person does, up from the bottom a screen at a time before the top is near.
  for (let i = 0; i < 5; i++) {
    await transcript.evaluate((el) => (el.scrollTop -= el.clientHeight));
    await ui.page.waitForTimeout(100);
  }

  // Up, a page at a time, to the start: the row at the top of the view stays where it was as
  // each page comes in above it (and the far pages below go). Each page's answer is held until
  // the view at the top has been read.
  let most = 0;
  let release = () => {};
  await ui.page.route('**/api/Sessions.Transcript', async (route) => {
    await new Promise((r) => (release = r));
    await route.continue();
  });
  const frames = () => ui.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  for (let n = 1; n < ENTRIES / 200; n++) {
    const before = await state();
    const asked = requests.length;
    await transcript.evaluate((el) => (el.scrollTop = 0));
    await eventually(() => requests.length > asked, `page ${n} asked for`);
    await frames();
    const anchored = await state();
    release();
    await eventually(async () => (await state()).first < before.first, `page ${n} before the window`);
    await frames();
    const now = await state();
    most = Math.max(most, now.rows);
    const y = await rowAt(anchored.top.text);
    // The first page after the view left the bottom can land a few rows off: the virtualizer
    // writes the new offset before the element has grown, the browser clamps it (as it did
    // before the window). It must stay on screen; every later page keeps it to the pixel.
    const slack = n === 1 ? (await transcript.evaluate((el) => el.clientHeight)) : 2;
    assert.ok(y !== null && Math.abs(y - anchored.top.y) <= slack, `page ${n}: the row "${anchored.top.text}" moved from ${anchored.top.y} to ${y}`);
  }
  await ui.page.unroute('**/api/Sessions.Transcript');
  assert.equal((await state()).first, 1, 'the start of the log is loaded');
  assert.ok(most <= WINDOW_ROWS, `rows held on the way up: ${most}`);
  await transcript.evaluate((el) => (el.scrollTop = 0));
  await ui.page.getByText('Message 2', { exact: true }).waitFor();
  assert.equal(await ui.byId('jump-start').count(), 0, 'no jump to the start once it is shown');
  await ui.shot('01-start');

  // Down again: the pages the window dropped are read after its newest entry, up to the end.
  const reads = requests.length;
  const lastRow = () =>
    transcript.evaluate((el) => el.querySelector('[data-testid="transcript-row"][data-last]')?.textContent.trim() ?? null);
  await eventually(
    async () => {
      await transcript.evaluate((el) => (el.scrollTop = el.scrollHeight));
      return (await lastRow()) === `Message ${ENTRIES}`;
    },
    'the newest entry reached by scrolling down',
    60_000,
  );
  const afters = requests.slice(reads).filter((r) => r.after);
  assert.ok(afters.length >= 5, `pages read again after the window: ${JSON.stringify(requests.slice(reads))}`);
  assert.ok((await state()).rows <= WINDOW_ROWS + 200);
  await eventually(async () => (await ui.byId('jump-latest').count()) === 0, 'at the end, no way back to it');

  // The jumps: the start is one request by its entry numbers, the newest end another.
  await transcript.evaluate((el) => (el.scrollTop = el.scrollTop - 2000));
  await ui.byId('jump-start').waitFor();
  await ui.shot('02-jump-start');
  await ui.byId('jump-start').click();
  await eventually(async () => (await state()).first === 1, 'the first page after the jump');
  await ui.page.getByText('Message 2', { exact: true }).waitFor();
  assert.deepEqual(requests.at(-1), { id, before: 201 });
  await ui.byId('jump-latest').click();
  await eventually(async () => (await state()).fromEnd < 60 && (await state()).first > 1, 'back at the newest end');
  await ui.page.getByText(`Message ${ENTRIES}`, { exact: true }).waitFor();
  assert.deepEqual(requests.at(-1), { id });
  await ui.shot('03-latest');
});
