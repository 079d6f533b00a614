// Composer end-to-end: real Chromium (Debian's) against `agentdesk serve --provider scripted`, one
// server per scenario with its own script. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
// Screenshots go to <repo>/build/screenshots/composer-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { apiOf, launchBrowser, settle, shotsDir, startServer as serve, stopServer, tearDown, tempDir } from './harness.mjs';

let context;
let page;
let pageErrors = [];
let srv; // the current scenario's server: {base, token, proc, output, workspace}
let api; // the app API of srv

/** Starts `agentdesk serve` with a scripted provider replaying `responses`, one per model request. */
async function startServer(responses) {
  const dir = tempDir('agentdesk-composer-');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const s = await serve(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  api = apiOf(s);
  return Object.assign(s, { workspace: mkdtempSync(join(dir, 'ws-')) });
}

// Shots wait for the composer's morph (height and fade transitions) to finish, not spinners.
const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `composer-${name}.png`) });
};
const byId = (id) => page.getByTestId(id);
const composerMode = () => byId('composer').getAttribute('data-mode');

/** A session in the scenario's temp workspace, opened in the page. */
async function openSession(fields = {}) {
  const s = await api('Sessions.Create', { workspace: srv.workspace, ...fields });
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('app-shell').waitFor();
  await page.locator(`[data-testid="session-item"][data-session-id="${s.id}"] [data-testid="session-select"]`).click();
  await page.locator(`[data-testid="session-view"][data-session-id="${s.id}"]`).waitFor();
  await byId('composer').waitFor();
  return s;
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

before(async () => {
  context = await launchBrowser('agentdesk-composer-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
});

afterEach(async () => {
  // Leave the page before its server goes, so a dropped socket is not logged as an error.
  await page.goto('about:blank');
  if (srv) await stopServer(srv.proc);
  srv = null;
  const errors = pageErrors;
  pageErrors = [];
  assert.deepEqual(errors, [], 'the page logged errors');
});

after(() => tearDown(context));

test('a Chat turn answers without any tool card', async () => {
  srv = await startServer([{ text: 'Chat answers from the conversation only.' }]);
  await openSession({ interactionMode: 'chat' });
  assert.equal(await byId('mode-selector').textContent(), 'Chat');
  await send('What does this project do?');
  await byId('msg-assistant').getByText('Chat answers from the conversation only.').waitFor();
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached' });
  assert.equal(await byId('turn-chip').getAttribute('data-mode'), 'chat');
  assert.equal(await byId('tool-card').count(), 0);
  await shot('01-chat');
});

test('Smart · Plan: the plan review morphs the composer; Approve leaves plan mode', async () => {
  const plan = '# Add a response cache\n\n1. Wrap the client in a cache\n2. Expire entries after `5m`\n3. Cover it with tests\n\n> Nothing changes until you approve.';
  srv = await startServer([
    { text: 'Here is my plan.', tool_calls: [{ name: 'exit_plan_mode', input: { plan } }] },
    { text: 'Plan approved; starting with the cache wrapper.' },
    { text: 'spare' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'plan' });
  assert.equal(await byId('mode-selector').textContent(), 'Smart · Plan');
  await send('Design a cache for the API client');
  await byId('composer-mode-plan-review').waitFor();
  assert.equal(await composerMode(), 'plan-review');
  assert.equal(await byId('composer-mode-title').textContent(), 'Add a response cache');
  assert.equal(await byId('plan-markdown').locator('li').count(), 3);
  assert.equal(await page.getByRole('dialog').count(), 0, 'no modal for a decision');
  await shot('02-plan-review');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await shot('03-plan-review-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await byId('plan-approve').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="composer"]')?.getAttribute('data-mode') === 'idle');
  await byId('msg-assistant').getByText('Plan approved; starting with the cache wrapper.').waitFor();
  // Out of plan mode: in the selector and in the transcript.
  await page.waitForFunction(() => document.querySelector('[data-testid="mode-selector"]')?.textContent !== 'Smart · Plan');
  const modes = await page.locator('[data-testid="mode-change"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-override')));
  assert.notEqual(modes.at(-1), 'plan', `the last mode change should leave plan: ${modes}`);
  // …and says why: the approved plan took it back.
  assert.match(await page.locator('[data-testid="mode-change"]').last().textContent(), /^Plan approved: back to /);
  const session = (await api('Sessions.List')).sessions[0];
  assert.notEqual(session.executionOverride, 'plan');
  await shot('04-plan-approved');
});

test('an approval rejected with a reason: the reason is the error the agent saw', async () => {
  srv = await startServer([
    { text: 'I will clean the build folder.', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build && echo cleaned' } }] },
    { text: 'Understood, I left it alone.' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'execute' });
  await send('Clean the build');
  await byId('composer-mode-approval').waitFor();
  assert.match(await byId('approval-summary').textContent(), /rm -rf build && echo cleaned/);
  await byId('approval-reason').fill('Keep the build folder for now');
  await shot('05-approval');
  await byId('approval-reject').click();
  const card = page.locator('[data-testid="tool-card"][data-tool="bash"]');
  await card.first().getByTestId('tool-error').getByText('Keep the build folder for now').waitFor();
  assert.match(await card.first().getByTestId('tool-verdict').textContent(), /rejected/i);
  await byId('msg-assistant').getByText('Understood, I left it alone.').waitFor();
  assert.equal(await composerMode(), 'idle');
  await shot('06-rejected-with-reason');
});

test('allow for this session saves the scope the card showed: the chosen prefix covers the next call', async () => {
  srv = await startServer([
    { text: 'First.', tool_calls: [{ name: 'bash', input: { command: 'echo scoped first' } }] },
    { text: 'Second.', tool_calls: [{ name: 'bash', input: { command: 'echo scoped second' } }] },
    { text: 'Both ran.' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'ask' });
  await send('Echo twice');
  await byId('composer-mode-approval').waitFor();
  assert.match(await byId('approval-scope-exact').textContent(), /echo scoped first/);
  assert.match(await byId('approval-scope-prefix').textContent(), /echo scoped …/);
  await byId('approval-scope-prefix').locator('input').check();
  await shot('05b-approval-scope');
  await byId('approval-allow-session').click();
  await byId('msg-assistant').getByText('Both ran.').waitFor();
  const outputs = await page.locator('[data-testid="tool-card"][data-tool="bash"] [data-testid="tool-output"]').allTextContents();
  assert.deepEqual(outputs.map((o) => o.split('\n')[0]), ['scoped first', 'scoped second']);
  assert.equal(await composerMode(), 'idle');
});

test('a direct run the session permission asks about waits for an inline confirmation', async () => {
  srv = await startServer([]);
  await openSession({ interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'ask' });
  await byId('open-fn-form').click();
  await byId('fn-tool-write').click();
  await byId('fn-field-path').locator('input, textarea').first().fill('direct.txt');
  await byId('fn-field-content').locator('input, textarea').first().fill('typed by hand');
  await byId('fn-form-run').click();
  await byId('fn-form-confirm').waitFor();
  assert.match(await byId('fn-form-confirm').textContent(), /Ask mode asks before every change/);
  assert.equal(existsSync(join(srv.workspace, 'direct.txt')), false, 'nothing runs before the person confirms');
  await shot('05c-direct-confirm');
  await byId('fn-form-confirm-run').click();
  await byId('direct-card').waitFor();
  assert.equal(readFileSync(join(srv.workspace, 'direct.txt'), 'utf8'), 'typed by hand');
  assert.equal(await composerMode(), 'idle');
});

test('two decisions in a row are shown one after the other', async () => {
  srv = await startServer([
    {
      text: 'Two things first.',
      tool_calls: [
        { name: 'bash', input: { command: 'touch notes.txt' } },
        { name: 'ask_user', input: { question: 'Which format should the notes use?', options: ['Markdown', 'Plain text'] } },
      ],
    },
    { text: 'Thanks, done.' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'execute' });
  await send('Start the notes file');
  await byId('composer-mode-approval').waitFor();
  await shot('07-first-decision');
  await byId('approval-allow-once').click();
  await byId('composer-mode-question').waitFor();
  assert.equal(await byId('question-text').textContent(), 'Which format should the notes use?');
  await shot('08-second-decision');
  await byId('question-option').filter({ hasText: 'Plain text' }).click();
  await byId('question-answer').click();
  await byId('msg-assistant').getByText('Thanks, done.').waitFor();
  assert.equal(await composerMode(), 'idle');
});

test('a mode switch during a running turn is queued and applies at the next turn', async () => {
  srv = await startServer([{ text: 'Working on the long task…', delay_ms: 2500 }, { text: 'A chat answer.' }]);
  await openSession({ interactionMode: 'smart', executionOverride: 'analyze' });
  await send('Explain the architecture');
  await byId('chip-turn').waitFor();
  await byId('mode-selector').click();
  await byId('mode-option-chat').click();
  await byId('chip-queued-switch').getByText('Next turn: Chat').waitFor();
  assert.equal(await byId('mode-selector').textContent(), 'Smart · Analyze', 'in force until the boundary');
  await shot('09-queued-switch');
  await byId('msg-assistant').getByText('Working on the long task…').waitFor({ timeout: 15_000 });
  await byId('chip-queued-switch').waitFor({ state: 'detached', timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="mode-selector"]')?.textContent === 'Chat');
  await send('And in short?');
  await byId('msg-assistant').getByText('A chat answer.').waitFor();
  const chips = await page.locator('[data-testid="turn-chip"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-mode')));
  assert.deepEqual(chips, ['analyze', 'chat']);
  await shot('10-switch-applied');
});

test('new tasks: Full access in the draft never writes the default; a new default shows in the next task', async () => {
  srv = await startServer([{ text: 'On it.' }, { text: 'Again.' }, { text: 'spare' }]);
  await page.goto(`${srv.base}/?token=${srv.token}`);
  await byId('new-task-composer').waitFor();
  await page.locator('[data-testid="permission-picker"][data-source="default"]').waitFor();
  assert.equal(await byId('permission-label').textContent(), 'Ask');

  await byId('permission-picker').click();
  await byId('permission-option-full').click();
  await byId('full-access-confirm').waitFor();
  await shot('11-full-access-confirm');
  // However narrow the window, the confirmation never covers the model label.
  for (const width of [1280, 900, 720, 600, 520]) {
    await page.setViewportSize({ width, height: 800 });
    await settle(page);
    const box = await byId('full-access-confirm').boundingBox();
    const label = await page.locator('.model-label').first().boundingBox();
    const apart = box.x + box.width <= label.x || label.x + label.width <= box.x || box.y >= label.y + label.height || label.y >= box.y + box.height;
    assert.ok(apart, `at ${width}px the confirmation ${JSON.stringify(box)} overlaps the model label ${JSON.stringify(label)}`);
  }
  await shot('11b-full-access-confirm-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  await byId('full-access-confirm-button').click();
  assert.equal(await byId('permission-label').textContent(), 'Full access');
  assert.equal(await byId('permission-picker').getAttribute('data-source'), 'draft');
  await byId('new-task-workspace').fill(srv.workspace);
  await send('Tidy the README');
  await byId('session-view').waitFor();
  const [created] = (await api('Sessions.List')).sessions;
  assert.equal(created.permissionMode, 'full');
  assert.equal((await api('Settings.Get')).defaultPermission, 'ask', 'the draft never writes the default');

  await byId('new-session').click();
  await page.locator('[data-testid="permission-picker"][data-source="default"]').waitFor();
  assert.equal(await byId('permission-label').textContent(), 'Ask');
  await shot('12-next-task-ask');

  // Settings changes the default (as the Settings page would): the next new task shows it.
  await api('Settings.SetDefaultPermission', { permissionMode: 'auto' });
  await page.locator(`[data-testid="session-item"][data-session-id="${created.id}"] [data-testid="session-select"]`).click();
  await byId('session-view').waitFor();
  await byId('new-session').click();
  await page.locator('[data-testid="permission-picker"][data-source="default"][data-permission="auto"]').waitFor();
  assert.equal(await byId('permission-label').textContent(), 'Auto');
  await shot('13-next-task-auto');
});

test('a reload during a pending approval shows it again', async () => {
  srv = await startServer([
    { text: 'Writing the config.', tool_calls: [{ name: 'write', input: { path: 'config.toml', content: 'debug = true\n' } }] },
    { text: 'Written.' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'execute' });
  await send('Create a config file');
  await byId('composer-mode-approval').waitFor();
  await page.reload();
  await byId('composer-mode-approval').waitFor();
  assert.equal(await byId('diff-path').textContent(), 'config.toml');
  await shot('14-reload-pending-approval');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Written.').waitFor();
});

test('the 简体中文 UI shows the composer and a decision in Chinese', async () => {
  srv = await startServer([
    { text: '我先运行一个命令。', tool_calls: [{ name: 'bash', input: { command: 'go test ./...' } }] },
    { text: '完成。' },
  ]);
  await api('Settings.SetLanguage', { language: 'zh-CN' });
  await openSession({ interactionMode: 'smart', executionOverride: 'execute' });
  assert.equal(await byId('composer-send').textContent(), '发送');
  assert.equal(await byId('mode-selector').textContent(), '智能 · 执行');
  await send('运行测试');
  await byId('composer-mode-approval').waitFor();
  assert.equal(await byId('approval-allow-once').textContent(), '仅允许一次');
  assert.equal(await byId('approval-reject').textContent(), '拒绝');
  assert.equal(await byId('composer-mode-title').textContent(), '运行命令');
  await shot('15-zh-CN-approval');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('完成。').waitFor();
});
