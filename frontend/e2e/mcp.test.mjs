// MCP end-to-end: real Chromium (Debian's) against `agentdesk serve --provider scripted`, with the
// fixture MCP server (backend/mcp/mcptest, written with the official Go SDK) added over the API as
// another client would. Run with AGENTDESK_BIN=… MCP_FIXTURE=… npm run e2e (make e2e sets both).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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

const remotes = [];
after(async () => {
  for (const p of remotes) p.kill('SIGKILL');
  await tearDown(context);
});

const byId = (id) => page.getByTestId(id);
const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `mcp-${name}.png`) });
};

/** Runs the fixture as its own process serving Streamable HTTP on a free port; resolves with its URL. */
function startRemoteFixture(cwd) {
  const proc = spawn(fixture, ['--http', '127.0.0.1:0'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  remotes.push(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the HTTP fixture printed no address: ${out}`)), 10_000);
    proc.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`the HTTP fixture exited with ${code}`)));
  });
}

const servers = {
  stdio: async () => ({ name: 'notes', transport: 'stdio', command: fixture }),
  http: async (dir) => ({ name: 'notes', transport: 'http', url: await startRemoteFixture(dir) }),
};

for (const [transport, serverConfig] of Object.entries(servers)) {
  test(`${transport}: an MCP tool asks, its server's form is answered in the composer, a changed tool waits for re-approval`, async () => {
    const dir = tempDir(`agentdesk-mcp-${transport}-`);
    const script = join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { text: 'Let me greet you.', tool_calls: [{ name: 'mcp__notes__greet', input: {} }] },
          { text: 'Greeted you through the MCP server.' },
          { text: 'Updating the server.', tool_calls: [{ name: 'mcp__notes__evolve', input: {} }] },
          { text: 'The server changed its echo tool.' },
          { text: 'Echoing loudly.', tool_calls: [{ name: 'mcp__notes__echo', input: { text: 'hi', loud: true } }] },
          { text: 'Echoed with the new definition.' },
        ],
      }),
    );
    const srv = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
    const api = apiOf(srv);
    // Adding lists the tools for review, none on; enabling pins the ones reviewed.
    const added = await api('MCP.Add', await serverConfig(dir));
    assert.equal(added.enabled, false);
    assert.equal(added.transport, transport);
    assert.ok(added.tools.length >= 9 && added.tools.every((t) => t.state === 'new' && t.seen), JSON.stringify(added.tools));
    const enabled = await api('MCP.Enable', { id: added.id, tools: Object.fromEntries(added.tools.map((t) => [t.name, t.seen])) });
    assert.equal(enabled.enabled, true);
    assert.ok(enabled.tools.every((t) => t.state === 'approved'), JSON.stringify(enabled.tools));

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
    await shot(`${transport}-01-approval`);
    await byId('approval-allow-once').click();

    // The server's elicitation morphs the composer into a form built from its schema.
    await byId('composer-mode-elicitation').waitFor();
    assert.equal(await byId('elicitation-message').textContent(), 'Who should I greet?');
    await byId('fn-field-name').locator('input').fill('Ada');
    await byId('fn-field-language').locator('select').selectOption('zh');
    await shot(`${transport}-02-elicitation`);
    await byId('elicitation-submit').click();

    await byId('msg-assistant').getByText('Greeted you through the MCP server.').waitFor();
    const card = page.locator('[data-testid="tool-card"][data-tool="mcp__notes__greet"]');
    await card.getByText('你好, Ada!').waitFor({ state: 'attached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="composer"]')?.getAttribute('data-mode') === 'idle');
    await shot(`${transport}-03-answered`);

    // The server changes its echo tool under the session (as an update would).
    await byId('composer-input').fill('Update the server');
    await byId('composer-input').press('Enter');
    await byId('composer-mode-approval').waitFor();
    assert.equal(await byId('composer-mode-title').textContent(), 'evolve · notes (MCP)');
    await byId('approval-allow-once').click();
    await byId('msg-assistant').getByText('The server changed its echo tool.').waitFor();

    // Settings lists the server; the changed tool is off, shown as a diff, until re-approved.
    await page.goto(`${srv.base}/#/settings`);
    const item = byId('mcp-server');
    await item.waitFor();
    assert.equal(await item.getAttribute('data-name'), 'notes');
    assert.ok((await item.getByTestId('mcp-tool').count()) >= 9);
    const echo = item.locator('[data-testid="mcp-tool"][data-tool="echo"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="mcp-tool"][data-tool="echo"]')?.getAttribute('data-state') === 'changed');
    const diff = await echo.getByTestId('mcp-tool-diff').textContent();
    assert.match(diff, /-.*"description": "Echoes the text back\."/);
    assert.match(diff, /\+.*"loud"/);
    await echo.scrollIntoViewIfNeeded();
    await shot(`${transport}-04-changed`);

    // The next call of the changed tool shows the change and approves it from the composer.
    await page.goto(`${srv.base}/?token=${srv.token}`);
    await page.locator(`[data-testid="session-item"][data-session-id="${s.id}"] [data-testid="session-select"]`).click();
    await byId('composer-input').fill('Echo it');
    await byId('composer-input').press('Enter');
    await byId('composer-mode-approval').waitFor();
    await byId('approval-tool-changed').waitFor();
    assert.match(await byId('approval-diff').textContent(), /\+  "description": "Echoes the text back, louder if asked\."/);
    assert.equal(await byId('approval-allow-session').count(), 0);
    await shot(`${transport}-05-changed-call`);
    await byId('approval-approve-change').click();
    await byId('msg-assistant').getByText('Echoed with the new definition.').waitFor();
    await page.locator('[data-testid="tool-card"][data-tool="mcp__notes__echo"]').getByText('echo: HI').waitFor({ state: 'attached' });
    const after = await api('MCP.List', {});
    const listed = after.find((v) => v.name === 'notes').tools.find((t) => t.name === 'echo');
    assert.equal(listed.state, 'approved', JSON.stringify(listed));
    assert.deepEqual(pageErrors, [], 'the page logged errors');
  });
}
