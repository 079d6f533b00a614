// Issue 12, the desktop experience second pass: one scenario per point, in real Chromium (Debian's)
// against `agentdesk serve`. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
// Screenshots go to <repo>/build/screenshots/desk-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before, test } from 'node:test';
import { apiOf, eventually, launchBrowser, settle, shotsDir, startServer as serve, stopServer, tearDown, tempDir } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
let context;
let page;
let pageErrors = [];
let srv; // this scenario's server: {base, token, proc, output, workspace, dir}
let api;

/** `agentdesk serve` on a fresh data folder: with a scripted provider replaying `responses`, or with none. */
async function startServer(responses, { lang } = {}) {
  const dir = tempDir('agentdesk-desk-');
  const args = ['--data-dir', join(dir, 'data')];
  if (responses) {
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ responses }));
    args.push('--provider', 'scripted', '--script', script);
  }
  const s = await serve(args, { env: { HOME: dir, ...(lang ? { LANG: lang } : {}) }, unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] });
  api = apiOf(s);
  return Object.assign(s, { dir, workspace: mkdtempSync(join(dir, 'ws-')) });
}

const shot = async (name) => {
  await settle(page);
  await page.screenshot({ path: join(shotsDir, `desk-${name}.png`) });
};
const byId = (id) => page.getByTestId(id);
const item = (id) => page.locator(`[data-testid="session-item"][data-session-id="${id}"]`);
const waitMode = (mode) =>
  page.waitForFunction((m) => document.querySelector('[data-testid="composer"], [data-testid="new-task-composer"]')?.getAttribute('data-mode') === m, mode);

async function open(sessionId) {
  await page.goto(`${srv.base}/?token=${srv.token}${sessionId ? `#/session/${sessionId}` : ''}`);
  await byId('app-shell').waitFor();
  if (sessionId) await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
}

async function openSession(fields = {}) {
  const s = await api('Sessions.Create', { workspace: srv.workspace, ...fields });
  await open(s.id);
  await byId('composer').waitFor();
  return s;
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

before(async () => {
  context = await launchBrowser('agentdesk-desk-browser-', { reducedMotion: 'reduce' });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
});

afterEach(async () => {
  await page.goto('about:blank');
  if (srv) await stopServer(srv.proc);
  srv = null;
  const errors = pageErrors.filter((e) => !/WebSocket|ERR_CONNECTION/.test(e));
  pageErrors = [];
  assert.deepEqual(errors, [], 'the page logged errors');
});

after(() => tearDown(context));

test('1. a decision waits for the person by default, raises a notification and a badge on its session', async () => {
  srv = await startServer([{ text: 'One question.', tool_calls: [{ name: 'ask_user', input: { question: 'Which port?', options: ['8080', '9090'] } }] }, { text: 'Thanks.' }]);
  assert.equal((await api('Settings.Get')).decisionTimeout, 'never');
  // The page is looked at elsewhere: the browser's notifications are recorded.
  await page.addInitScript(() => {
    window.__notified = [];
    class Recorded {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      constructor(title, opts) {
        window.__notified.push({ title, body: opts?.body });
      }
      close() {}
    }
    window.Notification = Recorded;
    document.hasFocus = () => false;
  });
  const waiting = await api('Sessions.Create', { workspace: srv.workspace, title: 'Asks a question' });
  await openSession({ title: 'Looked at' });
  await api('Composer.Send', { sessionId: waiting.id, text: 'Set up the server' });
  await item(waiting.id).getByTestId('session-waiting').waitFor();
  assert.equal(await item(waiting.id).getByTestId('session-waiting').textContent(), 'Waiting for you');
  const notified = await eventually(() => page.evaluate(() => window.__notified?.length && window.__notified), 'a notification');
  assert.equal(notified[0].body, 'Which port?');
  const [pending] = await api('Decisions.Pending', { id: waiting.id });
  assert.ok(pending.deadline.startsWith('0001-01-01'), `no deadline: ${pending.deadline}`);
  await shot('01-waiting-badge');
  // Still waiting after a while: nothing declined it on its own.
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await api('Decisions.Pending', { id: waiting.id })).length, 1);
  await item(waiting.id).getByTestId('session-select').click();
  await waitMode('question');
  await byId('question-option').filter({ hasText: '9090' }).click();
  await byId('question-answer').click();
  await byId('msg-assistant').getByText('Thanks.').waitFor();
  assert.equal(await item(waiting.id).getByTestId('session-waiting').count(), 0);
});

test('2. the demo: one session in its own folder, following the answers; never the provider of others', async () => {
  srv = await startServer(null);
  await open();
  await byId('onboarding-demo').click();
  const view = byId('session-view');
  await view.waitFor();
  const demoId = await view.getAttribute('data-session-id');
  const folder = await byId('session-workspace').textContent();
  assert.match(folder, /agentdesk-demo-/);
  await page.waitForFunction(() => document.querySelector('[data-testid="composer-input"]')?.value !== '');
  assert.equal(await byId('composer-input').inputValue(), 'Add a small script that prints a greeting');
  assert.equal(await byId('model-label').textContent(), 'Offline demo');
  await shot('02-demo-landing');

  await byId('composer-input').press('Enter');
  await waitMode('question');
  await byId('question-option').filter({ hasText: 'Hi there' }).click();
  await byId('question-answer').click();
  await waitMode('plan-review');
  await byId('plan-feedback').fill('Print it twice');
  await byId('plan-keep-planning').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="composer-mode-title"]')?.textContent?.includes('revised'));
  assert.match(await byId('plan-markdown').textContent(), /Your note: Print it twice/);
  assert.match(await byId('plan-markdown').textContent(), /Hi there/);
  await shot('03-demo-revised-plan');
  await byId('plan-approve').click();
  await waitMode('approval');
  await byId('diff').waitFor();
  assert.equal(await byId('diff').getAttribute('data-layout'), 'new-file');
  assert.match(await byId('diff').textContent(), /Hi there/);
  await shot('04-demo-new-file');
  await byId('approval-allow-once').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="composer-mode-title"]')?.textContent === 'Run command');
  await byId('approval-allow-once').click();
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached' });
  const bash = page.locator('[data-testid="tool-card"][data-tool="bash"]');
  assert.match(await bash.getByTestId('tool-output').textContent(), /Hi there/);
  assert.equal(readFileSync(join(folder, 'hello.sh'), 'utf8').includes('Hi there'), true);
  await shot('05-demo-done');

  // Any other task, in any folder, has no model: the composer offers the set-up, nothing replays the demo.
  await byId('new-session').click();
  await send('Write hello.sh in my home folder');
  await waitMode('setup');
  assert.equal((await api('Sessions.List')).sessions.length, 1);
  await byId('setup-back').click();

  await item(demoId).getByTestId('delete-session').click();
  await byId('confirm-delete').click();
  await eventually(() => !existsSync(folder), 'the demo folder to be removed');
});

test('3. the running dot, the waiting badge and unread are exact and live', async () => {
  srv = await startServer([
    { text: 'Working on it…', delay_ms: 1500 },
    { text: 'Elsewhere, slowly.', delay_ms: 1200 },
  ]);
  await open();
  await byId('new-task-workspace').fill(srv.workspace);
  await send('Start the first task');
  const view = byId('session-view');
  await view.waitFor();
  const first = await view.getAttribute('data-session-id');
  // During the new task's first turn the dot shows (the create response does not clear it).
  await item(first).getByTestId('session-running').waitFor();
  await shot('06-running-dot');
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached', timeout: 15_000 });
  await item(first).getByTestId('session-running').waitFor({ state: 'detached' });
  // A turn that ends in a session not in view leaves it unread until it is opened.
  const other = await api('Sessions.Create', { workspace: srv.workspace, title: 'In the background' });
  await api('Composer.Send', { sessionId: other.id, text: 'Run in the background' });
  await item(other.id).getByTestId('session-running').waitFor();
  await item(other.id).getByTestId('session-unread').waitFor({ timeout: 15_000 });
  assert.equal(await item(first).getByTestId('session-unread').count(), 0);
  await shot('07-unread');
  await item(other.id).getByTestId('session-select').click();
  await item(other.id).getByTestId('session-unread').waitFor({ state: 'detached' });
});

test('4. no raw codes or model-facing English reach the person; 简体中文 results', async () => {
  srv = await startServer([
    {
      text: '先看看。',
      tool_calls: [
        { name: 'glob', input: { pattern: '*.go' } },
        { name: 'write', input: { path: 'notes.md', content: '# 笔记\n' } },
      ],
    },
    { text: '有个问题。', tool_calls: [{ name: 'ask_user', input: { question: '用哪种格式？', options: ['Markdown', '纯文本'] } }] },
    { text: '再问一次。', tool_calls: [{ name: 'ask_user', input: { question: '还要别的吗？' } }] },
    { text: '完成。' },
  ]);
  await api('Settings.SetLanguage', { language: 'zh-CN' });
  await api('Settings.SetDecisionTimeout', { value: '10s' });
  await openSession({ interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'auto' });
  await send('整理笔记');
  await waitMode('question');
  await byId('question-option').filter({ hasText: 'Markdown' }).click();
  await byId('question-answer').click();
  await waitMode('question'); // this one is left alone until it times out
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached', timeout: 25_000 });
  const cards = page.locator('[data-testid="tool-card"]');
  const text = await page.getByTestId('transcript').textContent();
  for (const raw of ['DECISION_TIMED_OUT', 'REJECTED_BY_USER', 'No files match', 'The person answered', 'wrote', 'bytes.']) {
    assert.ok(!text.includes(raw), `the transcript shows “${raw}”: ${text}`);
  }
  assert.match(await cards.and(page.locator('[data-tool="glob"]')).textContent(), /没有文件匹配该模式/);
  assert.match(await cards.and(page.locator('[data-tool="write"]')).textContent(), /已创建 notes\.md（\d+ 字节）/);
  const questions = page.locator('[data-tool="ask_user"]');
  assert.match(await questions.nth(0).getByTestId('tool-answer').textContent(), /你的回答：Markdown/);
  assert.equal(await questions.nth(1).getByTestId('tool-verdict').textContent(), '无回答，已超时');
  assert.notEqual(await questions.nth(1).getByTestId('tool-verdict').textContent(), '已允许');
  await shot('08-zh-CN-results');
});

test('4b. keeping planning is the person’s own answer, not an error', async () => {
  srv = await startServer([
    { text: 'A plan.', tool_calls: [{ name: 'exit_plan_mode', input: { plan: '# Cache\n\n1. Add it' } }] },
    { text: 'Revised.', tool_calls: [{ name: 'exit_plan_mode', input: { plan: '# Cache, smaller\n\n1. Add less' } }] },
    { text: 'Approved, going.' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'plan' });
  await send('Plan a cache');
  await waitMode('plan-review');
  await byId('plan-feedback').fill('Make it smaller');
  await byId('plan-keep-planning').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="composer-mode-title"]')?.textContent === 'Cache, smaller');
  const first = page.locator('[data-testid="tool-card"][data-tool="exit_plan_mode"]').first();
  assert.equal(await first.getByTestId('tool-error').count(), 0);
  assert.equal(await first.getByTestId('tool-answer').textContent(), 'Your answerYou asked to keep planning: Make it smaller');
  assert.equal(await first.getByTestId('tool-verdict').textContent(), 'Keep planning');
  await shot('09-keep-planning-answer');
  await byId('plan-approve').click();
  await byId('msg-assistant').getByText('Approved, going.').waitFor();
});

test('5. Send with no model: the composer says what is missing and offers the set-up before anything is created', async () => {
  srv = await startServer(null);
  await open();
  assert.equal(await byId('model-label').textContent(), 'No model set up');
  await send('Fix the login bug');
  await waitMode('setup');
  assert.match(await byId('setup-lead').textContent(), /No model is set up yet/);
  assert.equal(await byId('new-task-composer').getByTestId('onboarding-path-key').count(), 1);
  assert.deepEqual((await api('Sessions.List')).sessions, []);
  await shot('10-setup-inline');
  await byId('setup-back').click();
  assert.equal(await byId('composer-input').inputValue(), 'Fix the login bug');
});

test('6. approvals for edits and writes show a real diff; one tool summary, the same live and after a reload', async () => {
  srv = await startServer([
    {
      text: 'Changing the handler.',
      tool_calls: [{ name: 'edit', input: { path: 'server.go', old_string: 'return "hello"', new_string: 'return fmt.Sprintf("hello, %s", name)' } }],
    },
    { text: 'Done.' },
  ]);
  const source = 'package main\n\nimport "fmt"\n\n// greet says hello.\nfunc greet(name string) string {\n\treturn "hello"\n}\n\nfunc main() {\n\tfmt.Println(greet("ada"))\n}\n';
  writeFileSync(join(srv.workspace, 'server.go'), source);
  await openSession({ interactionMode: 'smart', executionOverride: 'execute' });
  await send('Greet by name');
  await waitMode('approval');
  await byId('diff').waitFor();
  assert.equal(await byId('diff-path').textContent(), 'server.go');
  assert.equal(await byId('diff-note').textContent(), '+1 −1');
  assert.ok((await page.locator('[data-testid="diff"] .hljs-string').count()) > 0, 'highlighted');
  const del = page.locator('[data-testid="diff-line"][data-kind="del"]');
  assert.match(await del.textContent(), /^7−\s*return "hello"$/);
  await shot('11-diff-unified');
  await byId('diff-layout-split').click();
  await byId('diff-row').first().waitFor();
  await shot('12-diff-split');
  const live = await page.locator('[data-testid="tool-card"][data-tool="edit"] [data-testid="tool-summary"]').textContent();
  assert.equal(live, 'server.go');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Done.').waitFor();
  await page.reload();
  await page.locator('[data-testid="tool-card"][data-tool="edit"]').waitFor();
  assert.equal(await page.locator('[data-testid="tool-card"][data-tool="edit"] [data-testid="tool-summary"]').textContent(), live);
  assert.match(readFileSync(join(srv.workspace, 'server.go'), 'utf8'), /hello, %s/);
});

test('7. mode switches collapse into one divider; Shift+Tab cycles and keeps the pin without trapping focus', async () => {
  srv = await startServer([{ text: 'In debug.' }, { text: 'spare' }]);
  await openSession();
  const selector = byId('mode-selector');
  for (const choice of ['chat', 'smart']) {
    await selector.click();
    await byId(`mode-option-${choice}`).click();
  }
  await selector.click();
  await byId('mode-advanced').click();
  await byId('mode-option-debug').click();
  await eventually(async () => (await selector.textContent()) === 'Smart · Debug', 'the selector to read Smart · Debug');
  // Shift+Tab in the empty box: Chat, Smart, then the pinned Debug again.
  const input = byId('composer-input');
  await input.focus();
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const before = await selector.textContent();
    await input.press('Shift+Tab');
    await page.waitForFunction((b) => document.querySelector('[data-testid="mode-selector"]')?.textContent !== b, before);
    seen.push(await selector.textContent());
  }
  assert.deepEqual(seen, ['Chat', 'Smart', 'Smart · Debug']);
  // With text in it, Shift+Tab leaves the box like anywhere else.
  await input.fill('Why does it fail?');
  await input.press('Shift+Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'composer-input');
  assert.equal(await selector.textContent(), 'Smart · Debug');
  await input.press('Enter');
  await byId('msg-assistant').getByText('In debug.').waitFor();
  const dividers = await page.locator('[data-testid="mode-change"]').evaluateAll((els) => els.map((e) => e.textContent));
  assert.deepEqual(dividers, ['Mode: Smart · Debug']);
  await shot('13-one-divider');
});

test('8. every status label tells the truth of the turn at that moment', async () => {
  srv = await startServer([
    { text: 'My plan.', tool_calls: [{ name: 'exit_plan_mode', input: { plan: '# Write notes\n\n1. Write notes.txt' } }] },
    { text: 'Writing.', tool_calls: [{ name: 'write', input: { path: 'notes.txt', content: 'notes\n' } }] },
    { text: 'Written.' },
  ]);
  await openSession({ interactionMode: 'smart', executionOverride: 'plan' });
  await send('Plan and write notes');
  await waitMode('plan-review');
  assert.equal(await byId('chip-turn').textContent(), 'Plan · waiting for your review of the plan');
  await byId('plan-approve').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="composer-mode-title"]')?.textContent === 'Write file');
  assert.equal(await byId('mode-selector').textContent(), 'Smart');
  assert.equal(await byId('chip-turn').textContent(), 'Execute · waiting for your approval');
  assert.match(await page.locator('[data-testid="turn-status"][data-status="running"]').textContent(), /Waiting for you/);
  await shot('14-truthful-status');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Written.').waitFor();
});

test('9. an external agent chosen in the new-task composer; the session names it and offers no Chat', async () => {
  const fixture = resolve(here, '../../backend/acp/testdata/node/fixtures/agent.mjs');
  srv = await startServer(null);
  const agent = `node ${fixture}`;
  await api('Settings.SetExternalAgents', { commands: [agent] });
  await open();
  await byId('new-task-workspace').fill(srv.workspace);
  await byId('runtime-picker').click();
  await page.locator(`[data-testid="runtime-option"][data-agent="${agent}"]`).click();
  assert.equal(await byId('runtime-picker').getAttribute('data-agent'), agent);
  await byId('mode-selector').click();
  assert.equal(await byId('mode-option-chat').count(), 0);
  await page.keyboard.press('Escape');
  await shot('15-runtime-picker');
  await send('hello');
  await byId('session-agent').waitFor();
  assert.equal(await byId('session-agent').textContent(), 'Agent: node agent.mjs');
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached', timeout: 15_000 });
  await byId('mode-selector').click();
  assert.equal(await byId('mode-option-chat').count(), 0);
  await page.keyboard.press('Escape');
  await shot('16-external-session');
});

test('10. smaller: jump to the sent message, a disconnected line that goes on reconnect, titles, the balanced page, the scripted label', async () => {
  const long = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
  srv = await startServer([{ text: long }, { text: 'Short.' }]);
  await open();
  await byId('new-task-workspace').fill(srv.workspace);
  assert.equal(await byId('model-label').textContent(), 'Scripted');
  await shot('17-new-task-balanced');
  const box = await byId('new-task-composer').boundingBox();
  const vh = page.viewportSize().height;
  assert.ok(box.y > vh * 0.25 && box.y + box.height < vh * 0.8, `the composer sits in the middle band: ${JSON.stringify(box)}`);

  await send('Explain the whole project in detail');
  await byId('session-view').waitFor();
  const id = await byId('session-view').getAttribute('data-session-id');
  await page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached' });
  await eventually(async () => (await item(id).getByTestId('session-title').textContent()) === 'Explain the whole project in detail', 'the title from the message');
  const transcript = byId('transcript');
  await transcript.evaluate((el) => (el.scrollTop = 0));
  await send('And in short?');
  await byId('msg-assistant').getByText('Short.').waitFor();
  await eventually(() => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 60), 'the view at the new message');

  // The event stream drops: a line says so; it goes once the transport is back by itself.
  let down = true;
  const sockets = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (down && sockets.length > 0) {
      ws.close();
      return;
    }
    ws.connectToServer();
    sockets.push(ws);
  });
  await page.reload();
  await byId('session-view').waitFor();
  await eventually(() => sockets.length === 1, 'the stream through the route');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  await sockets[0].close();
  await byId('connection-lost').waitFor();
  await shot('18-disconnected');
  down = false;
  await byId('connection-lost').waitFor({ state: 'detached', timeout: 20_000 });
  assert.ok(sockets.length >= 2, 'reconnected');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
