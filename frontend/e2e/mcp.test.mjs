// MCP end-to-end: real Chromium (Debian's) against `agentdesk serve --provider scripted`, with the
// fixture MCP server (backend/mcp/mcptest, written with the official Go SDK) added over the API as
// another client would. Run with AGENTDESK_BIN=… MCP_FIXTURE=… npm run e2e (make e2e sets both).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { apiOf, launchBrowser, settle, shotsDir, startServer, tearDown, tempDir } from './harness.mjs';

const fixture = process.env.MCP_FIXTURE;
let context;
let page;
const pageErrors = [];

before(async () => {
  assert.ok(fixture && existsSync(fixture), 'set MCP_FIXTURE to the fixture MCP server (make e2e builds build/bin/mcp-fixture)');
  context = await launchBrowser('agentdesk-mcp-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
});

after(() => tearDown(context));

const byId = (id) => page.getByTestId(id);
const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `mcp-${name}.png`) });
};

test('an MCP tool asks, then its server asks for a form that is answered in the composer', async () => {
  const dir = tempDir('agentdesk-mcp-');
  const script = join(dir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      responses: [
        { text: 'Let me greet you.', tool_calls: [{ name: 'mcp__notes__greet', input: {} }] },
        { text: 'Greeted you through the MCP server.' },
      ],
    }),
  );
  const srv = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  const api = apiOf(srv);
  const added = await api('MCP.Add', { name: 'notes', transport: 'stdio', command: fixture });
  assert.equal(added.enabled, true);
  assert.ok(added.tools.some((t) => t.name === 'greet' && t.state === 'approved'), JSON.stringify(added.tools));

  const workspace = mkdtempSync(join(dir, 'ws-'));
  const s = await api('Sessions.Create', { workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'ask' });
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('app-shell').waitFor();
  await page.locator(`[data-testid="session-item"][data-session-id="${s.id}"] [data-testid="session-select"]`).click();
  await byId('composer').waitFor();
  await byId('composer-input').fill('Greet me');
  await byId('composer-input').press('Enter');

  // The gate asks for an MCP tool in Ask mode; the card names the server and the exact scope.
  await byId('composer-mode-approval').waitFor();
  assert.equal(await byId('composer-mode-title').textContent(), 'greet · notes (MCP)');
  assert.match(await byId('approval-scope-exact').textContent(), /mcp:notes\/greet/);
  await shot('01-approval');
  await byId('approval-allow-once').click();

  // The server's elicitation morphs the composer into a form built from its schema.
  await byId('composer-mode-elicitation').waitFor();
  assert.equal(await byId('elicitation-message').textContent(), 'Who should I greet?');
  await byId('fn-field-name').locator('input').fill('Ada');
  await byId('fn-field-language').locator('select').selectOption('zh');
  await shot('02-elicitation');
  await byId('elicitation-submit').click();

  await byId('msg-assistant').getByText('Greeted you through the MCP server.').waitFor();
  const card = page.locator('[data-testid="tool-card"][data-tool="mcp__notes__greet"]');
  await card.getByText('你好, Ada!').waitFor({ state: 'attached' });
  assert.equal(await byId('composer').getAttribute('data-mode'), 'idle');
  await shot('03-answered');

  // Settings lists the server and its pinned tools.
  await page.goto(`${srv.base}/#/settings`);
  const item = byId('mcp-server');
  await item.waitFor();
  assert.equal(await item.getAttribute('data-name'), 'notes');
  assert.ok((await item.getByTestId('mcp-tool').count()) >= 7);
  await item.scrollIntoViewIfNeeded();
  await shot('04-settings');
  assert.deepEqual(pageErrors, [], 'the page logged errors');
});
