// MCP sampling and progress end-to-end: real Chromium (Debian's) against `agentdesk serve
// --provider scripted`, with the reference server @modelcontextprotocol/server-everything (node,
// stdio) added over the API as another client would. Its trigger-sampling-request tool asks the
// client's model to answer a prompt: the composer asks the person, and the session's (scripted)
// model answers. Run with AGENTDESK_BIN=… MCP_EVERYTHING=… npm run e2e (make e2e sets both).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { apiOf, launchBrowser, settle, shotsDir, startServer, tearDown, tempDir } from './harness.mjs';

const everything = process.env.MCP_EVERYTHING;
const SAMPLE = 'mcp__everything__trigger-sampling-request';
const LONG_RUN = 'mcp__everything__trigger-long-running-operation';
const SAMPLED = 'Hi from the sampled model.';

let context;
let page;
let srv;
let api;
let sessionId;
const pageErrors = [];

const byId = (id) => page.getByTestId(id);
const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `sampling-${name}.png`) });
};
const cards = (tool) => page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);
// The transcript draws only the rows near the screen: a call is found by its prompt, not its place.
const samplingCard = (prompt) => cards(SAMPLE).filter({ has: page.getByTestId('tool-summary').getByText(`"prompt":"${prompt}"`, { exact: false }) });
const composerMode = () => page.evaluate(() => document.querySelector('[data-testid="composer"]')?.getAttribute('data-mode'));

/** Sends a message from the composer, as the person would. */
async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

before(async () => {
  assert.ok(
    everything && existsSync(everything),
    'set MCP_EVERYTHING to server-everything\'s dist/index.js (make e2e does; build/scripts/setup.sh test installs it under backend/mcp/testdata/node)',
  );
  context = await launchBrowser('agentdesk-sampling-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));

  const dir = tempDir('agentdesk-sampling-');
  const script = join(dir, 'script.json');
  // One script for the whole file, in the order the tests below use it. A sampling request is
  // answered by the session's model: the response after a call that samples is the sampled text.
  writeFileSync(
    script,
    JSON.stringify({
      responses: [
        { text: 'Asking the server.', tool_calls: [{ name: SAMPLE, input: { prompt: 'Say hi', maxTokens: 50 } }] },
        { text: SAMPLED },
        { text: 'The server got its answer.' },
        { text: 'Asking the server again.', tool_calls: [{ name: SAMPLE, input: { prompt: 'Say hi again', maxTokens: 50 } }] },
        { text: 'The server was refused.' },
        { text: 'Sampling twice.', tool_calls: [{ name: SAMPLE, input: { prompt: 'First', maxTokens: 20 } }] },
        { text: 'Granted sample one.' },
        { text: 'Once more.', tool_calls: [{ name: SAMPLE, input: { prompt: 'Second', maxTokens: 20 } }] },
        { text: 'Granted sample two.' },
        { text: 'Both samples went through.' },
        { text: 'Starting a slow operation.', tool_calls: [{ name: LONG_RUN, input: { duration: 3, steps: 4 } }] },
        { text: 'The slow operation finished.' },
      ],
    }),
  );
  srv = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  api = apiOf(srv);
  // Added, the server lists its tools for review; enabled with them, they are pinned.
  const listed = await api('MCP.Add', { name: 'everything', transport: 'stdio', command: 'node', args: [everything, 'stdio'] });
  const added = await api('MCP.Enable', { id: listed.id, tools: Object.fromEntries(listed.tools.map((t) => [t.name, t.seen])) });
  assert.equal(added.enabled, true, JSON.stringify(added));
  // The tool is offered only to a client that can sample: its presence says AgentDesk announced it.
  const tool = added.tools.find((t) => t.name === 'trigger-sampling-request');
  assert.ok(tool, `no trigger-sampling-request among ${added.tools.map((t) => t.name).join(', ')}`);
  assert.equal(tool.state, 'approved', JSON.stringify(tool));

  const workspace = mkdtempSync(join(dir, 'ws-'));
  const s = await api('Sessions.Create', { workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'full' });
  sessionId = s.id;
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('app-shell').waitFor();
  await page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"] [data-testid="session-select"]`).click();
  await byId('composer').waitFor();
});

after(async () => {
  await tearDown(context);
});

test('Allow once: the sampling card shows the request, and the tool result holds the sampled text', async () => {
  await send('Ask the server to sample');

  // Full access lets the tool run without asking; the server's use of the model still asks.
  await byId('composer-mode-sampling').waitFor();
  assert.equal(await byId('composer-mode-title').textContent(), 'everything asks to use your model');
  assert.match(await byId('sampling-lead').textContent(), /trigger-sampling-request/);
  assert.match(await byId('sampling-model').textContent(), /^Model: \S+/);
  assert.match(await byId('sampling-max-tokens').textContent(), /at most 50 tokens/);
  const parts = byId('sampling-part');
  assert.deepEqual(await parts.evaluateAll((els) => els.map((e) => e.dataset.role)), ['system', 'user']);
  assert.equal(await parts.nth(0).locator('p').textContent(), 'You are a helpful test server.');
  assert.match(await parts.nth(1).locator('p').textContent(), /Say hi$/);
  await shot('01-asked');

  // The keyboard path: Tab from the reason field past Deny and Allow for this server to Allow
  // once, which shows the focus ring and takes Enter.
  await byId('sampling-reason').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const el = document.activeElement;
    return { id: el?.getAttribute('data-testid'), ring: getComputedStyle(el).boxShadow, want: getComputedStyle(document.documentElement).getPropertyValue('--focus-ring') };
  });
  assert.equal(focused.id, 'sampling-allow-once');
  assert.match(focused.ring, /0px 0px 0px 4px/, `no focus ring on Allow once: ${focused.ring} (the ring is ${focused.want})`);
  await shot('01b-focused');
  await page.keyboard.press('Enter');

  await byId('msg-assistant').getByText('The server got its answer.').waitFor();
  const card = samplingCard('Say hi');
  await card.getByText(SAMPLED, { exact: false }).waitFor({ state: 'attached' });
  assert.equal(await card.getAttribute('data-verdict'), 'allow');
  assert.equal(await composerMode(), 'idle');
  await card.scrollIntoViewIfNeeded();
  await shot('02-allowed');
});

test('Deny with a reason: the server gets the refusal, and its result says so', async () => {
  await send('Ask it again');
  await byId('composer-mode-sampling').waitFor();
  await byId('sampling-reason').fill('Not with my account');
  assert.equal(await byId('sampling-deny').textContent(), 'Deny with reason');
  await shot('03-deny');
  await byId('sampling-deny').click();

  await byId('msg-assistant').getByText('The server was refused.').waitFor();
  const card = samplingCard('Say hi again');
  await card.getByTestId('tool-error').waitFor();
  const text = await card.textContent();
  assert.ok(!text.includes(SAMPLED), `the denied call got a sample: ${text}`);
  // The server's error says who declined, in words, with the person's reason.
  assert.match(await card.getByTestId('tool-error').textContent(), /did not let the MCP server “everything” use their model: Not with my account/);
  assert.equal(await composerMode(), 'idle');
  await card.scrollIntoViewIfNeeded();
  await shot('04-denied');
});

test('Allow for this server: its next request in the session is answered without asking', async () => {
  // Counts every time the composer turns into a sampling card from here on.
  await page.evaluate(() => {
    const composer = document.querySelector('[data-testid="composer"]');
    window.samplingAsks = 0;
    new MutationObserver(() => {
      if (composer.getAttribute('data-mode') === 'sampling') window.samplingAsks++;
    }).observe(composer, { attributes: true, attributeFilter: ['data-mode'] });
  });
  await send('Sample twice');
  await byId('composer-mode-sampling').waitFor();
  assert.match(await byId('sampling-part').nth(1).locator('p').textContent(), /First$/);
  await byId('sampling-allow-server').click();

  await byId('msg-assistant').getByText('Both samples went through.').waitFor();
  await samplingCard('Second').getByText('Granted sample two.', { exact: false }).waitFor({ state: 'attached' });
  await samplingCard('First').getByText('Granted sample one.', { exact: false }).waitFor({ state: 'attached' });
  assert.equal(await page.evaluate(() => window.samplingAsks), 1);
});

test("a long-running MCP tool shows its progress on its card until it ends", async () => {
  await send('Run the slow operation');
  const card = cards(LONG_RUN).first();
  const bar = card.getByRole('progressbar');
  await bar.waitFor({ timeout: 10_000 });
  assert.equal(await bar.getAttribute('aria-valuemax'), '4');
  assert.match(await card.getByTestId('tool-progress-count').textContent(), /^[1-4] of 4$/);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shotsDir, 'sampling-05-progress.png') });

  await byId('msg-assistant').getByText('The slow operation finished.').waitFor({ timeout: 15_000 });
  await card.getByText('Long running operation completed', { exact: false }).waitFor({ state: 'attached' });
  assert.equal(await card.getByTestId('tool-progress').count(), 0);
});

test("Settings shows the server's log", async () => {
  await page.goto(`${srv.base}/#/settings`);
  const item = page.locator('[data-testid="mcp-server"][data-name="everything"]');
  await item.waitFor();
  await item.getByTestId('mcp-log-open').click();
  const panel = item.getByTestId('mcp-log');
  await panel.waitFor();
  const path = await panel.getByTestId('mcp-log-path').inputValue();
  assert.match(path, /mcp-everything\.log$/);
  assert.ok(existsSync(path), `the log file ${path} does not exist`);
  // The server writes this to its standard error when it starts.
  assert.match(await panel.getByTestId('mcp-log-text').textContent(), /Starting default \(STDIO\) server/);
  await panel.scrollIntoViewIfNeeded();
  await shot('06-log');
  await panel.getByTestId('mcp-log-close').click();
  assert.equal(await item.getByTestId('mcp-log').count(), 0);
  assert.deepEqual(pageErrors, [], 'the page logged errors');
});
