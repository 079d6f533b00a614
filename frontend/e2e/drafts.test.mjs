// Drafts end-to-end: real Chromium against `agentdesk serve --provider scripted`. What the person
// half-typed — a message, a reject reason — is still there after a reload and a look at another
// session, and goes once it is sent. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, eventually, startServer as serve, tempDir } from './harness.mjs';

const ui = browserSuite('drafts');
const { byId, shot } = ui;

let api;

async function startServer(responses) {
  const dir = tempDir('agentdesk-drafts-');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const s = await serve(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  api = apiOf(s);
  return Object.assign(s, { workspace: mkdtempSync(join(dir, 'ws-')) });
}

const input = () => byId('composer-input');

async function select(id) {
  await ui.page.locator(`[data-testid="session-item"][data-session-id="${id}"] [data-testid="session-select"]`).click();
  await ui.page.locator(`[data-testid="session-view"][data-session-id="${id}"]`).waitFor();
  await byId('composer').waitFor();
}

test('a half-typed message survives a reload and a session switch, stays in its session, and goes once sent', async () => {
  ui.server = await startServer([{ text: 'Got your message.' }]);
  const a = await api('Sessions.Create', { workspace: ui.server.workspace });
  const b = await api('Sessions.Create', { workspace: ui.server.workspace });
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('app-shell').waitFor();

  await select(a.id);
  await input().pressSequentially('Refactor the parser, but keep');
  await ui.page.reload();
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
  await ui.page.reload();
  await byId('app-shell').waitFor();
  await select(a.id);
  assert.equal(await input().inputValue(), '', 'a sent message is no draft');
  await select(b.id);
  assert.equal(await input().inputValue(), 'Something for the other session');
});

test('the new task keeps its half-typed message across a reload', async () => {
  ui.server = await startServer([]);
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('new-task-composer').waitFor();
  await input().pressSequentially('Write a changelog for');
  await ui.page.reload();
  await byId('new-task-composer').waitFor();
  assert.equal(await input().inputValue(), 'Write a changelog for');
});

test('a half-typed reject reason survives a reload and is sent with the refusal', async () => {
  ui.server = await startServer([
    { text: 'I will clean the build folder.', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build && echo cleaned' } }] },
    { text: 'Understood, I left it alone.' },
  ]);
  const s = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute' });
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('app-shell').waitFor();
  await select(s.id);
  await input().fill('Clean the build');
  await input().press('Enter');
  await byId('composer-mode-approval').waitFor();
  await byId('approval-reason').pressSequentially('Keep the build folder until');

  await ui.page.reload();
  await byId('app-shell').waitFor();
  await select(s.id);
  await byId('composer-mode-approval').waitFor();
  assert.equal(await byId('approval-reason').inputValue(), 'Keep the build folder until');
  await shot('02-reason-after-reload');

  // Playwright puts the caret of an <input> it focuses at the start; a person's Tab puts it at the end.
  await byId('approval-reason').press('End');
  await byId('approval-reason').pressSequentially(' Friday');
  await byId('approval-reject').click();
  const card = ui.page.locator('[data-testid="tool-card"][data-tool="bash"]');
  await card.first().getByTestId('tool-error').getByText('Keep the build folder until Friday').waitFor();
  await byId('msg-assistant').getByText('Understood, I left it alone.').waitFor();
  // Written once typing pauses, as every draft change is.
  await eventually(
    async () => !/Keep the build folder/.test(await ui.page.evaluate(() => localStorage.getItem('agentdesk.drafts') ?? '')),
    'an answered decision to leave no draft',
    3000,
  );
});
