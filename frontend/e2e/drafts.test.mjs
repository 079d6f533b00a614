// Drafts end-to-end: real Chromium against `agentdesk serve --provider scripted`. What the person
// half-typed — a message, a reject reason — is still there after a reload and a look at another
// session, and goes once it is sent. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { apiOf, eventually, launchBrowser, settle, shotsDir, startServer as serve, stopServer, tearDown, tempDir } from './harness.mjs';

let context;
let page;
let pageErrors = [];
let srv;
let api;

async function startServer(responses) {
  const dir = tempDir('agentdesk-drafts-');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const s = await serve(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  api = apiOf(s);
  return Object.assign(s, { workspace: mkdtempSync(join(dir, 'ws-')) });
}

const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `drafts-${name}.png`) });
};
const byId = (id) => page.getByTestId(id);
const input = () => byId('composer-input');

async function select(id) {
  await page.locator(`[data-testid="session-item"][data-session-id="${id}"] [data-testid="session-select"]`).click();
  await page.locator(`[data-testid="session-view"][data-session-id="${id}"]`).waitFor();
  await byId('composer').waitFor();
}

before(async () => {
  context = await launchBrowser('agentdesk-drafts-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
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

test('a half-typed message survives a reload and a session switch, stays in its session, and goes once sent', async () => {
  srv = await startServer([{ text: 'Got your message.' }]);
  const a = await api('Sessions.Create', { workspace: srv.workspace });
  const b = await api('Sessions.Create', { workspace: srv.workspace });
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('app-shell').waitFor();

  await select(a.id);
  await input().pressSequentially('Refactor the parser, but keep');
  await page.reload();
  await byId('app-shell').waitFor();
  await select(a.id);
  assert.equal(await input().inputValue(), 'Refactor the parser, but keep');
  await shot('01-message-after-reload');

  await select(b.id);
  assert.equal(await input().inputValue(), '', 'a draft never shows in another session');
  await input().fill('Something for the other session');
  await select(a.id);
  assert.equal(await input().inputValue(), 'Refactor the parser, but keep');
  await select(b.id);
  assert.equal(await input().inputValue(), 'Something for the other session');

  await select(a.id);
  await input().pressSequentially(' the API');
  await input().press('Enter');
  await byId('msg-assistant').getByText('Got your message.').waitFor();
  assert.match(await byId('msg-user').last().textContent(), /Refactor the parser, but keep the API/);
  assert.equal(await input().inputValue(), '');
  await page.reload();
  await byId('app-shell').waitFor();
  await select(a.id);
  assert.equal(await input().inputValue(), '', 'a sent message is no draft');
  await select(b.id);
  assert.equal(await input().inputValue(), 'Something for the other session');
});

test('the new task keeps its half-typed message across a reload', async () => {
  srv = await startServer([]);
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('new-task-composer').waitFor();
  await input().pressSequentially('Write a changelog for');
  await page.reload();
  await byId('new-task-composer').waitFor();
  assert.equal(await input().inputValue(), 'Write a changelog for');
});

test('a half-typed reject reason survives a reload and is sent with the refusal', async () => {
  srv = await startServer([
    { text: 'I will clean the build folder.', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build && echo cleaned' } }] },
    { text: 'Understood, I left it alone.' },
  ]);
  const s = await api('Sessions.Create', { workspace: srv.workspace, interactionMode: 'smart', executionOverride: 'execute' });
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('app-shell').waitFor();
  await select(s.id);
  await input().fill('Clean the build');
  await input().press('Enter');
  await byId('composer-mode-approval').waitFor();
  await byId('approval-reason').pressSequentially('Keep the build folder until');

  await page.reload();
  await byId('app-shell').waitFor();
  await select(s.id);
  await byId('composer-mode-approval').waitFor();
  assert.equal(await byId('approval-reason').inputValue(), 'Keep the build folder until');
  await shot('02-reason-after-reload');

  // Playwright puts the caret of an <input> it focuses at the start; a person's Tab puts it at the end.
  await byId('approval-reason').press('End');
  await byId('approval-reason').pressSequentially(' Friday');
  await byId('approval-reject').click();
  const card = page.locator('[data-testid="tool-card"][data-tool="bash"]');
  await card.first().getByTestId('tool-error').getByText('Keep the build folder until Friday').waitFor();
  await byId('msg-assistant').getByText('Understood, I left it alone.').waitFor();
  // Written once typing pauses, as every draft change is.
  await eventually(
    async () => !/Keep the build folder/.test(await page.evaluate(() => localStorage.getItem('agentdesk.drafts') ?? '')),
    'an answered decision to leave no draft',
    3000,
  );
});
