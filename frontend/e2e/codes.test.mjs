// Every code has words, end to end: real Chromium (Debian's) against `agentdesk serve --provider
// scripted`. Verified mode's reminder to verify reads as AgentDesk's note, not as the person's
// message, and Settings show the provider the command line set. Run with
// AGENTDESK_BIN=/path/to/agentdesk node --test e2e/codes.test.mjs.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, settle, shotsDir, startServer as serve, tempDir } from './harness.mjs';

const ui = browserSuite('codes');
const { byId, shot } = ui;

let api;

async function startServer(responses) {
  const dir = tempDir('agentdesk-codes-');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const s = await serve(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  api = apiOf(s);
  return Object.assign(s, { workspace: mkdtempSync(join(dir, 'ws-')) });
}

test("Verified mode's reminder to verify is AgentDesk's note, not the person's message", async () => {
  ui.server = await startServer([
    { tool_calls: [{ name: 'write', input: { path: 'x.txt', content: '1' } }] },
    { text: 'All done!' },
    { tool_calls: [{ name: 'bash', input: { command: 'test -f x.txt' } }] },
    { text: 'Verified: x.txt exists.' },
  ]);
  const s = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'verified', permissionMode: 'full' });
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('app-shell').waitFor();
  await ui.page.locator(`[data-testid="session-item"][data-session-id="${s.id}"] [data-testid="session-select"]`).click();
  await byId('composer').waitFor();
  await byId('composer-input').fill('create x.txt');
  await byId('composer-input').press('Enter');
  await ui.page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached' });
  await byId('msg-nudge').waitFor();
  // And the same from the stored log, after a reload.
  await ui.page.reload();
  await byId('app-shell').waitFor();
  await ui.page.locator(`[data-testid="session-item"][data-session-id="${s.id}"] [data-testid="session-select"]`).click();
  const note = byId('msg-nudge');
  await note.waitFor();
  assert.match(await note.textContent(), /AgentDesk reminded the agent to verify its work/);
  const bubbles = await byId('msg-user').allTextContents();
  assert.deepEqual(bubbles, ['create x.txt'], 'only the person’s own message is a bubble');
  await shot('01-nudge-note');
});

test('Settings show the provider the command line set, and offer no offline demo', async () => {
  ui.server = await startServer([{ text: 'hi' }]);
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('app-shell').waitFor();
  await byId('nav-settings').click();
  const inForce = byId('provider-in-force');
  await inForce.waitFor();
  assert.equal(await inForce.textContent(), 'Scripted');
  assert.match(await byId('provider-command-line').textContent(), /Set on the command line/);
  assert.equal(await byId('provider-form').count(), 0);
  await settle(ui.page);
  await byId('providers-section').screenshot({ path: join(shotsDir, 'codes-02-settings-provider-in-force.png') });
});
