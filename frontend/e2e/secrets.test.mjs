// Secrets are not read unasked, end-to-end: real Chromium against `agentdesk serve --provider
// scripted`. A workspace holds a private SSH key; the agent's read of it asks in Ask and in Auto
// (the approval is in the composer, naming the list entry), and is refused with the way to allow
// it in Full. Settings lists the entries and can remove one. Run with
// AGENTDESK_BIN=/path/to/agentdesk node --test e2e/secrets.test.mjs.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, startServer, tempDir } from './harness.mjs';

const ui = browserSuite('secrets', { ignoreConsole: /Failed to load resource|net::ERR/ });
const { byId, shot } = ui;

const KEY = '-----BEGIN OPENSSH PRIVATE KEY----- e2e-secret-material';

// serve starts `agentdesk serve` with a workspace holding .ssh/id_ed25519 and a script whose
// first answer reads it.
async function serve() {
  const dir = tempDir('agentdesk-secrets-');
  const workspace = join(dir, 'ws');
  mkdirSync(join(workspace, '.ssh'), { recursive: true });
  writeFileSync(join(workspace, '.ssh', 'id_ed25519'), KEY);
  const script = join(dir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      responses: [
        { text: 'Let me look at the key.', tool_calls: [{ name: 'read', input: { path: '.ssh/id_ed25519' } }] },
        { text: 'Done looking.' },
      ],
    }),
  );
  const s = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  return Object.assign(s, { api: apiOf(s), workspace });
}

async function startTurn(permissionMode) {
  ui.server = await serve();
  const s = await ui.server.api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode });
  await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
  await byId('app-shell').waitFor();
  await ui.page.locator(`[data-testid="session-item"][data-session-id="${s.id}"] [data-testid="session-select"]`).click();
  await ui.page.locator(`[data-testid="session-view"][data-session-id="${s.id}"]`).waitFor();
  await byId('composer-input').fill('Read my key');
  await byId('composer-input').press('Enter');
  return s;
}

for (const permission of ['ask', 'auto']) {
  test(`in ${permission}, reading .ssh/id_ed25519 asks first, naming the list entry`, async () => {
    const s = await startTurn(permission);
    await byId('composer-mode-approval').waitFor();
    const [pending] = await ui.server.api('Decisions.Pending', { id: s.id });
    assert.equal(pending.kind, 'approval');
    assert.equal(pending.payload.code, 'SENSITIVE_PATH');
    assert.equal(pending.payload.reasonArgs.Entry, '.ssh/');
    const composer = await byId('composer').textContent();
    assert.match(composer, /id_ed25519/);
    assert.match(composer, /sensitive paths list/);
    // A saved answer could never apply: no scope to save is offered (the backend keeps any yes
    // to this call, as for a protected path).
    assert.ok(!pending.payload.scopes?.length, `scopes ${JSON.stringify(pending.payload.scopes)}`);
    await shot(`01-${permission}-asks`);
    await byId('approval-allow-once').click();
    await byId('msg-assistant').getByText('Done looking.').waitFor();
  });
}

test('in full, reading .ssh/id_ed25519 is refused with how to allow it, and Settings can remove the entry', async () => {
  const s = await startTurn('full');
  await byId('msg-assistant').getByText('Done looking.').waitFor();
  assert.deepEqual(await ui.server.api('Decisions.Pending', { id: s.id }), []);
  const view = ui.page.locator(`[data-testid="session-view"][data-session-id="${s.id}"]`);
  await view.getByText(/remove the entry in Settings/).first().waitFor();
  assert.ok(!(await view.textContent()).includes('e2e-secret-material'), 'the key reached the page');
  await shot('02-full-refused');

  await byId('nav-settings').click();
  const section = byId('sensitive-section');
  await section.waitFor();
  const ssh = section.locator('[data-testid="sensitive-entry"][data-path=".ssh/"]');
  await ssh.waitFor();
  await section.scrollIntoViewIfNeeded();
  await shot('03-settings-list');
  await ssh.getByTestId('sensitive-remove').click();
  await ssh.waitFor({ state: 'detached' });
  const stored = (await ui.server.api('Settings.Get')).sensitivePaths;
  assert.ok(!stored.includes('.ssh/') && stored.includes('.env'), `stored ${stored}`);
  await byId('sensitive-reset').click();
  await ssh.waitFor();
});
