// Browser end-to-end: real Chromium (Debian's) against `agentdesk serve` on a fresh data folder.
// Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e. Screenshots go to <repo>/build/screenshots/.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { apiOf, eventually, launchBrowser, shotsDir, startServer, tearDown, tempDir } from './harness.mjs';

let base; // http://127.0.0.1:PORT
let token;
let api; // the app API, called as another client would
let context;
let page;
const pageErrors = [];

const shot = (name) => page.screenshot({ path: join(shotsDir, `${name}.png`) });
const sessionItems = () => page.getByTestId('session-item');
const itemTitled = (title) => sessionItems().filter({ has: page.getByTestId('session-title').getByText(title, { exact: true }) });

before(async () => {
  const script = join(tempDir('agentdesk-e2e-script-'), 'script.json');
  writeFileSync(script, JSON.stringify({ responses: [{ text: 'Hello there.' }] }));
  const server = await startServer(['--data-dir', tempDir('agentdesk-e2e-data-'), '--provider', 'scripted', '--script', script]);
  ({ base, token } = server);
  api = apiOf(server);
  context = await launchBrowser('agentdesk-e2e-browser-');
  page = context.pages()[0] ?? (await context.newPage());
});

after(() => tearDown(context));

test('without the token the server answers 401 and does not serve the app', async () => {
  const res = await fetch(`${base}/`);
  assert.equal(res.status, 401);
  const body = await res.text();
  assert.ok(!body.includes('id="root"'), 'the 401 body must not be the app page');

  const apiRes = await fetch(`${base}/api/Sessions.List`, { method: 'POST', body: '{}' });
  assert.equal(apiRes.status, 401);
  assert.equal((await apiRes.json()).error.kind, 'UNAUTHORIZED');

  const response = await page.goto(`${base}/`);
  assert.equal(response?.status(), 401);
  assert.equal(await page.getByTestId('app-shell').count(), 0);
  assert.equal(await page.locator('#root').count(), 0);
  await shot('00-no-token-401');
});

test('create a session, rename it, and find it again after a reload', async () => {
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));

  await page.goto(`${base}/?token=${token}`);
  assert.ok(!page.url().includes('token='), `the token must leave the address bar: ${page.url()}`);
  await page.getByTestId('no-sessions').waitFor();
  await shot('01-empty-state');

  // The first message of the new-task composer creates the session, in the folder given, and names it.
  await page.getByTestId('new-task-workspace').fill(tempDir('agentdesk-e2e-ws-'));
  await page.getByTestId('composer-input').fill('Hello');
  await page.getByTestId('composer-input').press('Enter');
  await sessionItems().first().waitFor();
  assert.equal(await sessionItems().count(), 1);
  await page.getByTestId('session-heading').waitFor();
  await page.getByTestId('composer').waitFor();

  await sessionItems().first().getByTestId('rename-session').click();
  const input = page.getByTestId('rename-input');
  await input.fill('Refactor the parser');
  await input.press('Enter');
  await itemTitled('Refactor the parser').waitFor();
  await page.getByTestId('session-heading').getByText('Refactor the parser').waitFor();
  await shot('02-session-renamed');

  await page.reload();
  await itemTitled('Refactor the parser').waitFor();
  assert.equal(await sessionItems().count(), 1);
  assert.equal(await page.getByTestId('session-heading').textContent(), 'Refactor the parser');
  const stored = (await api('Sessions.List')).sessions;
  assert.deepEqual(
    stored.map((s) => s.title),
    ['Refactor the parser'],
  );
  await shot('03-after-reload');
});

test('switching to 简体中文 changes the shell at once and persists', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-page').waitFor();
  assert.equal(await page.getByTestId('nav-settings').textContent(), 'Settings');

  await page.getByTestId('language-select').selectOption('zh-CN');
  await page.getByTestId('nav-settings').getByText('设置', { exact: true }).waitFor();
  assert.equal(await page.getByTestId('new-session').textContent(), '新建会话');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal((await api('Settings.Get')).language, 'zh-CN');
  await shot('04-settings-zh-CN');

  await page.reload();
  await page.getByTestId('nav-settings').getByText('设置', { exact: true }).waitFor();
  assert.equal(await page.getByTestId('language-select').inputValue(), 'zh-CN');
  await shot('05-zh-CN-after-reload');

  // Another client changes it back: settings.changed reaches this page.
  await api('Settings.SetLanguage', { language: 'en' });
  await page.getByTestId('nav-settings').getByText('Settings', { exact: true }).waitFor();
  assert.equal(await page.getByTestId('language-select').inputValue(), 'en');
});

test('a session created by another client appears without a reload', async () => {
  await itemTitled('Refactor the parser').getByTestId('session-select').click();
  await page.getByTestId('session-view').waitFor();
  await page.evaluate(() => {
    window.__sameDocument = true;
  });

  const created = await api('Sessions.Create', { title: 'Made over HTTP', workspace: tempDir('agentdesk-e2e-ws-') });
  assert.equal(created.title, 'Made over HTTP');
  await itemTitled('Made over HTTP').waitFor();
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the page must not have reloaded');
  assert.equal(await sessionItems().count(), 2);
  // The newest session is listed first.
  assert.equal(await sessionItems().first().getByTestId('session-title').textContent(), 'Made over HTTP');
  await shot('06-broadcast-session');
});

test('the theme follows the OS: light and dark', async () => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  // The page follows the OS's change as it is told of it (a media query listener), a frame later.
  const dark = await eventually(async () => {
    const now = await background();
    return now !== light && now;
  }, 'the dark palette after the OS turned dark', 3000);
  assert.notEqual(light, dark);
  await shot('08-dark-theme');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('deleting asks inline first, then removes the session everywhere', async () => {
  const item = itemTitled('Made over HTTP');
  await item.getByTestId('session-select').click();
  await item.getByTestId('delete-session').click();
  await page.getByTestId('confirm-delete').waitFor();
  await shot('07-delete-confirm');
  await page.getByTestId('confirm-delete').click();
  await itemTitled('Made over HTTP').waitFor({ state: 'detached' });
  assert.equal(await sessionItems().count(), 1);
  assert.deepEqual(
    (await api('Sessions.List')).sessions.map((s) => s.title),
    ['Refactor the parser'],
  );
  assert.deepEqual(pageErrors, [], 'the page logged errors');
});
