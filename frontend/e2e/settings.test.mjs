// Browser end-to-end for Settings, first-run onboarding and the theme: real Chromium (Debian's)
// against `agentdesk serve`. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
// Screenshots go to <repo>/build/screenshots/settings-*.png and onboarding-*.png.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiOf, eventually, launchBrowser, settle, shotsDir, startServer as serve, tearDown, tempDir } from './harness.mjs';

let context;

/** Starts `agentdesk serve` on a fresh data folder, with no provider key from the machine. */
function startServer(extraArgs = []) {
  return serve(['--data-dir', tempDir('agentdesk-settings-data-'), ...extraArgs], { unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] });
}

async function newPage() {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  page.on('response', (res) => res.status() >= 400 && errors.push(`${res.status()} ${res.url()}`));
  // Screenshots wait for entrance animations and colour transitions to finish (not spinners).
  const shot = async (name) => {
    await settle(page);
    await page.screenshot({ path: join(shotsDir, `${name}.png`) });
  };
  return { page, errors, shot };
}

before(async () => {
  context = await launchBrowser('agentdesk-settings-browser-', { viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
});

after(() => tearDown(context));

describe('Settings against a scripted server', () => {
  let server;
  let api;
  let page;
  let errors;
  let shot;
  let workspace;

  const radio = (mode) => page.getByTestId(`default-permission-${mode}`);
  // The radios are visually hidden inside their cards; a person clicks the card.
  const choose = (mode) => radio(mode).locator('xpath=..').click();
  const chooseTheme = (theme) => page.getByTestId(`theme-picker-${theme}`).locator('xpath=..').click();
  const openSettings = async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('permissions-section').waitFor();
  };

  before(async () => {
    workspace = tempDir('agentdesk-settings-ws-');
    const script = join(tempDir('agentdesk-settings-script-'), 'always-allow.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { text: 'Running the check.', tool_calls: [{ name: 'bash', input: { command: 'echo settings-e2e' } }] },
          { text: 'The check passed.' },
        ],
      }),
    );
    server = await startServer(['--provider', 'scripted', '--script', script]);
    api = apiOf(server);
    ({ page, errors, shot } = await newPage());
    await page.goto(`${server.base}/?token=${server.token}`);
    await page.getByTestId('app-shell').waitFor();
  });

  test('the default permission: Full asks first, Auto persists over a reload and over HTTP', async () => {
    await openSettings();
    await page.getByTestId('rules-empty').waitFor();
    assert.equal(await radio('ask').isChecked(), true);
    await shot('settings-01-default');

    // Full access only opens the confirmation; cancelling writes nothing.
    await choose('full');
    await page.getByTestId('full-access-confirm').waitFor();
    assert.equal(await radio('full').isChecked(), false);
    await shot('settings-02-full-confirm');
    await page.getByTestId('full-access-cancel').click();
    await page.getByTestId('full-access-confirm').waitFor({ state: 'detached' });
    assert.equal((await api('Settings.Get')).defaultPermission, 'ask');
    assert.equal(await radio('ask').isChecked(), true);

    // Confirmed, it is written.
    await choose('full');
    await page.getByTestId('full-access-confirm-button').click();
    await eventually(async () => (await api('Settings.Get')).defaultPermission === 'full', 'the default to become full');
    assert.equal(await radio('full').isChecked(), true);

    // Auto needs no confirmation.
    await choose('auto');
    await eventually(async () => (await api('Settings.Get')).defaultPermission === 'auto', 'the default to become auto');
    assert.equal(await page.getByTestId('full-access-confirm').count(), 0);

    await page.reload();
    await page.getByTestId('permissions-section').waitFor();
    await eventually(() => radio('auto').isChecked(), 'Auto to be checked after the reload');
    await shot('settings-03-auto-persisted');

    // Another client changes it: settings.changed reaches this page.
    await api('Settings.SetDefaultPermission', { permissionMode: 'ask' });
    await eventually(() => radio('ask').isChecked(), 'Ask to follow the broadcast');
  });

  test('an "Always allow" answer appears as a rule and can be revoked', async () => {
    const session = await api('Sessions.Create', { workspace, permissionMode: 'ask', title: 'Rule maker' });
    await api('Composer.Send', {
      sessionId: session.id,
      text: 'Run the check.',
      interactionMode: 'smart',
      executionOverride: 'execute',
    });
    const [decision] = await eventually(async () => {
      const pending = await api('Decisions.Pending', { id: session.id });
      return pending.length > 0 && pending;
    }, 'the approval');
    assert.equal(decision.kind, 'approval');
    assert.deepEqual(await api('Decisions.Resolve', { id: decision.id, choice: 'allow_always' }), { won: true });
    const [stored] = await eventually(async () => {
      const rules = await api('Settings.Rules');
      return rules.length > 0 && rules;
    }, 'the rule to be stored');
    assert.equal(stored.command, 'echo settings-e2e');

    // The open Settings page refreshes when the decision is resolved.
    const item = page.getByTestId('rule-item');
    await item.waitFor();
    assert.equal(await item.getByTestId('rule-kind').textContent(), 'Run commands');
    assert.equal(await item.getByTestId('rule-pattern').textContent(), 'echo settings-e2e');
    assert.match(await item.getByTestId('rule-source').textContent(), /From an “Always allow” answer/);
    await item.scrollIntoViewIfNeeded();
    await shot('settings-04-rule');

    await item.getByTestId('revoke-rule').click();
    await page.getByTestId('rules-empty').waitFor();
    assert.deepEqual(await api('Settings.Rules'), []);
    await shot('settings-05-rule-revoked');
  });

  test('the decision timeout shows the server’s validation message inline', async () => {
    // By default a decision waits for the person; Decline after turns a timeout on.
    assert.equal(await page.getByTestId('decision-timeout-choice-wait').isChecked(), true);
    await page.getByTestId('decision-timeout-choice-decline').locator('xpath=..').click();
    const input = page.getByTestId('decision-timeout-input');
    assert.equal(await input.inputValue(), '10m');
    await input.fill('5s');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/Settings.SetDecisionTimeout'));
    await input.press('Enter');
    const status = (await answer).status();
    const error = page.getByTestId('decision-timeout-error');
    await error.waitFor();
    // The browser logs every non-2xx answer; this one was expected.
    errors.splice(0, errors.length, ...errors.filter((e) => !/SetDecisionTimeout|status of [45]\d\d/.test(e)));
    // A value out of range is the person's mistake: a 400 with a localized message, not a 500.
    assert.equal(status, 400, 'Settings.SetDecisionTimeout answered a validation error with HTTP 500');
    assert.match(await error.textContent(), /5s/);
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    await page.getByTestId('decision-timeout').scrollIntoViewIfNeeded();
    await shot('settings-06-timeout-error');

    await input.fill('90s');
    await input.press('Enter');
    await eventually(async () => (await api('Settings.Get')).decisionTimeout === '1m30s', 'the timeout to be saved');
    await error.waitFor({ state: 'detached' });
  });

  test('providers: the one the command line set is the one shown, and it cannot be changed here', async () => {
    const section = page.getByTestId('providers-section');
    await section.scrollIntoViewIfNeeded();
    assert.equal(await page.getByTestId('provider-in-force').textContent(), 'Scripted');
    assert.match(await page.getByTestId('provider-command-line').textContent(), /Set on the command line/);
    assert.equal(await page.getByTestId('provider-form').count(), 0);
    assert.equal(await page.getByTestId('key-anthropic-status').getAttribute('data-source'), 'none');
  });

  test('external agents: an added command line survives a reload and can be removed', async () => {
    await openSettings();
    const section = page.getByTestId('external-agents-section');
    await section.scrollIntoViewIfNeeded();
    await section.getByTestId('external-agents-empty').waitFor();
    assert.match(await section.textContent(), /starts the command over stdio/);
    assert.match(await section.textContent(), /Chat is not available for external agents/);

    // One typed command line and one suggestion.
    await page.getByTestId('external-agent-input').fill('my-acp-agent --stdio');
    await page.getByTestId('external-agent-add').click();
    await page.getByTestId('external-agent-suggestion-goose').click();
    await eventually(
      async () => JSON.stringify((await api('Settings.Get')).externalAgents) === JSON.stringify(['my-acp-agent --stdio', 'goose acp']),
      'the agents to be saved',
    );
    assert.equal(await page.getByTestId('external-agent-input').inputValue(), '');

    await page.reload();
    await page.getByTestId('external-agents-section').waitFor();
    const commands = () => page.getByTestId('external-agent-command').allTextContents();
    await eventually(async () => (await commands()).length === 2, 'the agents after the reload');
    assert.deepEqual(await commands(), ['my-acp-agent --stdio', 'goose acp']);
    assert.equal(await page.getByTestId('external-agent-suggestion-goose').count(), 0);
    await page.getByTestId('external-agent-form').scrollIntoViewIfNeeded();
    await shot('settings-10-external-agents');

    const first = page.getByTestId('external-agent-item').filter({ hasText: 'my-acp-agent --stdio' });
    await first.getByTestId('external-agent-remove').click();
    await eventually(async () => (await commands()).length === 1, 'the agent to be removed');
    assert.deepEqual((await api('Settings.Get')).externalAgents, ['goose acp']);
    await page.getByTestId('external-agent-remove').click();
    await page.getByTestId('external-agents-empty').waitFor();
    assert.deepEqual((await api('Settings.Get')).externalAgents, []);
  });

  test('the theme: Dark forces the dark palette whatever the OS says', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await chooseTheme('dark');
    await eventually(async () => (await api('Settings.Get')).theme === 'dark', 'the theme to be saved');
    await eventually(
      () => page.evaluate(() => document.documentElement.getAttribute('data-theme') === 'dark'),
      'html[data-theme=dark]',
    );
    assert.notEqual(await background(), light);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('#main').evaluate((el) => el.scrollTo(0, 0));
    await shot('settings-08-dark');
    await chooseTheme('system');
    await eventually(() => page.evaluate(() => document.documentElement.getAttribute('data-theme') === 'system'), 'system theme');
    assert.equal(await background(), light);
  });

  test('the Settings page in 简体中文', async () => {
    await page.getByTestId('language-select').selectOption('zh-CN');
    await page.getByTestId('nav-settings').getByText('设置', { exact: true }).waitFor();
    const permissions = page.getByTestId('permissions-section');
    await permissions.getByText('新会话的默认权限').waitFor();
    assert.match(await permissions.textContent(), /完全访问/);
    assert.match(await page.getByTestId('rules-section').textContent(), /暂无规则/);
    assert.match(await page.getByTestId('providers-section').textContent(), /模型提供方/);
    await choose('full');
    await page.getByTestId('full-access-confirm').getByText('开启完全访问').waitFor();
    await page.locator('#main').evaluate((el) => el.scrollTo(0, 0));
    await shot('settings-09-zh-CN');
    await page.getByTestId('full-access-cancel').click();
    assert.equal((await api('Settings.Get')).defaultPermission, 'ask');
    await page.getByTestId('language-select').selectOption('en');
    await page.getByTestId('nav-settings').getByText('Settings', { exact: true }).waitFor();
    assert.deepEqual(errors, [], 'the page logged errors');
  });
});

describe('First run on a fresh data folder', () => {
  let server;
  let api;
  let page;
  let errors;
  let shot;

  before(async () => {
    server = await startServer();
    api = apiOf(server);
    ({ page, errors, shot } = await newPage());
  });

  test('the onboarding panel appears, and the offline demo starts a session', async () => {
    assert.equal((await api('Settings.Get')).providerReady, false);
    await page.goto(`${server.base}/?token=${server.token}`);
    const panel = page.getByTestId('onboarding');
    await panel.waitFor();
    await panel.getByText('Welcome to AgentDesk').waitFor();
    await shot('onboarding-01-welcome');

    await page.getByTestId('onboarding-probe').click();
    await page.getByTestId('local-servers').waitFor();
    assert.equal(await page.getByTestId('local-server').count(), 2);
    await shot('onboarding-02-local-probe');

    await page.getByTestId('onboarding-demo').click();
    await panel.waitFor({ state: 'detached' });
    const sessions = await eventually(async () => {
      const list = (await api('Sessions.List')).sessions;
      return list.length > 0 && list;
    }, 'the demo session');
    await page.getByTestId('session-item').first().waitFor();
    assert.ok(page.url().includes(encodeURIComponent(sessions[0].id)), `the page shows the demo session: ${page.url()}`);
    // The demo runs on its own script: it does not become the provider of other sessions.
    assert.equal((await api('Settings.Get')).providerReady, false);
    assert.equal(sessions[0].demo, true);
    await shot('onboarding-03-demo-started');
    assert.deepEqual(errors, [], 'the page logged errors');
  });

  test('providers: presets fill the base URL and keys show where they come from', async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('providers-section').scrollIntoViewIfNeeded();
    // The offline demo is no provider: it runs only in its own sessions.
    assert.deepEqual(await page.getByTestId('provider-kind').locator('option:not([disabled])').evaluateAll((os) => os.map((o) => o.value)), ['anthropic', 'openai']);
    await page.getByTestId('provider-kind').selectOption('openai');
    await page.getByTestId('preset-ollama').click();
    assert.equal(await page.getByTestId('provider-base-url').inputValue(), 'http://127.0.0.1:11434/v1');
    await page.getByTestId('provider-model').fill('llama3.2');
    await page.getByTestId('provider-save').click();
    await eventually(async () => {
      const { provider } = await api('Settings.Get');
      return provider.kind === 'openai' && provider.baseUrl === 'http://127.0.0.1:11434/v1' && provider.model === 'llama3.2';
    }, 'the provider to be saved');
    assert.equal(await page.getByTestId('key-anthropic-status').getAttribute('data-source'), 'none');
    await shot('settings-07-providers');
    assert.deepEqual(errors, [], 'the page logged errors');
  });
});
