// Accessibility (WCAG 2.2 AA) end-to-end: axe-core, injected into real Chromium (Debian's) against
// `agentdesk serve`, audits every main view in the light and the dark theme and in English and
// 简体中文. A serious or critical violation fails the test, and so does a heading level skipped or a
// control whose accessible name does not contain its visible label; every one found is printed with
// its rule and the elements it names. Run with AGENTDESK_BIN=… MCP_FIXTURE=… npm run e2e.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, eventually, settle, startServer as serve, tempDir } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const fixture = process.env.MCP_FIXTURE;

// Serious and critical fail whatever the rule; these fail at any impact (heading-order is
// "moderate" to axe, and label-content-name-mismatch is off unless asked for).
const ALWAYS = new Set(['heading-order', 'label-content-name-mismatch']);

const ui = browserSuite('a11y', { ignoreConsole: /WebSocket|ERR_CONNECTION/ });
const { byId } = ui;
let api;

const COMBOS = [
  { language: 'en', scheme: 'light' },
  { language: 'en', scheme: 'dark' },
  { language: 'zh-CN', scheme: 'light' },
  { language: 'zh-CN', scheme: 'dark' },
];

/** `agentdesk serve` on a fresh data folder; scripted with `responses` when given, else no model at all. */
async function startServer(responses) {
  const dir = tempDir('agentdesk-a11y-');
  const args = ['--data-dir', join(dir, 'data')];
  if (responses) {
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ responses }));
    args.push('--provider', 'scripted', '--script', script);
  }
  const s = await serve(args, { env: { HOME: dir }, unset: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'] });
  api = apiOf(s);
  return Object.assign(s, { dir, workspace: mkdtempSync(join(dir, 'ws-')) });
}

/** Runs axe-core on the page as it is; resolves with the violations this suite refuses. */
async function audit() {
  // The views are audited at rest: an entrance (a fade from opacity 0) that starts while axe reads
  // the colours, as when a live update re-renders a part of the page, would be measured half done.
  await ui.page.addStyleTag({ content: '*, *::before, *::after { animation: none !important; transition: none !important; }' });
  await settle(ui.page);
  if (!(await ui.page.evaluate(() => 'axe' in window))) await ui.page.addScriptTag({ content: axeSource });
  const violations = await ui.page.evaluate(async () => {
    const result = await window.axe.run(document, {
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    // A heading out of order is read against the page's outline: print it with the violation.
    const outline = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
      .map((h) => `h${h.getAttribute('aria-level') ?? h.tagName.slice(1)} ${h.textContent.trim().slice(0, 40)}`)
      .join(' | ');
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.join(' '),
        html: n.html.length > 160 ? `${n.html.slice(0, 160)}…` : n.html,
        summary: `${n.failureSummary?.split('\n').slice(1).join(' ').trim()}${v.id === 'heading-order' ? ` (the outline: ${outline})` : ''}`,
      })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || ALWAYS.has(v.id));
}

function describe(found) {
  return found
    .map(({ view, id, impact, help, nodes }) =>
      [`${view}: ${id} (${impact}) ${help}`, ...nodes.map((n) => `    ${n.target}  ${n.html}\n      — ${n.summary}`)].join('\n'),
    )
    .join('\n');
}

/**
 * Shows each view in each language and theme and audits it. A view is [name, show], where show
 * brings the page to it from nothing (a fresh load of the app).
 */
async function auditViews(views) {
  const found = [];
  for (const { language, scheme } of COMBOS) {
    await api('Settings.SetLanguage', { language });
    await ui.page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const [name, show] of views) {
      const view = `${name} [${language}, ${scheme}]`;
      await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}`);
      await byId('app-shell').waitFor();
      await eventually(
        () => ui.page.evaluate((s) => document.documentElement.getAttribute('data-scheme') === s || (s === 'light' && !document.documentElement.hasAttribute('data-scheme')), scheme),
        `the ${scheme} scheme`,
      );
      await show();
      await eventually(() => ui.page.evaluate((l) => document.documentElement.lang === l || document.documentElement.lang.startsWith(l.slice(0, 2)), language), `lang=${language}`);
      for (const v of await audit()) found.push({ view, ...v });
    }
  }
  if (found.length) console.log(`axe-core violations:\n${describe(found)}`);
  const counts = {};
  for (const v of found) counts[v.id] = (counts[v.id] ?? 0) + v.nodes.length;
  assert.deepEqual(counts, {}, `axe-core found violations (nodes by rule):\n${describe(found)}`);
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

const sessionUrl = (id) => `${ui.server.base}/?token=${ui.server.token}#/session/${id}`;
async function gotoSession(id) {
  await ui.page.goto(sessionUrl(id));
  await ui.page.locator(`[data-testid="session-view"][data-session-id="${id}"]`).waitFor();
  await byId('composer').waitFor();
}

test('first run: onboarding, the set-up asked for on Send, and the folder dialog have no serious violation in either theme or language', async () => {
  ui.server = await startServer(null);
  await auditViews([
    ['onboarding', () => byId('onboarding').waitFor()],
    [
      'no model: the set-up inline',
      async () => {
        await byId('new-task-composer').waitFor();
        await send('Fix the login bug');
        await byId('setup-lead').waitFor();
      },
    ],
    [
      'the folder dialog',
      async () => {
        await byId('workspace-browse').click();
        await byId('folder-dialog').waitFor();
        await byId('folder-dialog-entry').first().waitFor();
      },
    ],
  ]);
});

test("the side-by-side section of tasks in worktrees, a task's changes hunk by hunk and its conflicts in the composer have no serious violation", async () => {
  ui.server = await startServer([{ text: 'Not asked.' }]);
  const repo = join(ui.server.dir, 'repo');
  const numbered = (edit = {}) => Array.from({ length: 20 }, (_, i) => `${edit[i + 1] ?? `line ${i + 1}`}\n`).join('');
  mkdirSync(repo);
  writeFileSync(join(repo, 'app.txt'), 'base\n');
  writeFileSync(join(repo, 'list.txt'), numbered());
  for (const args of [['init', '-q'], ['add', 'app.txt', 'list.txt'], ['-c', 'user.name=P', '-c', 'user.email=p@example.com', 'commit', '-qm', 'start']]) {
    execFileSync('git', args, { cwd: repo });
  }
  const fix = await api('Sessions.Create', { workspace: repo, title: 'Fix the login', isolated: true });
  await api('Sessions.Create', { workspace: repo, title: 'Write the docs', isolated: true });
  // Changes that have not reached the person, counted when the copy is restored; the person
  // changed app.txt too, so the task's change to it is a conflict.
  writeFileSync(join(fix.workspace, 'app.txt'), 'changed\n');
  writeFileSync(join(fix.workspace, 'list.txt'), numbered({ 2: 'two', 18: 'eighteen' }));
  writeFileSync(join(repo, 'app.txt'), "the person's\n");
  await api('Sessions.RemoveWorktree', { id: fix.id });
  await api('Sessions.RestoreWorktree', { id: fix.id });
  await auditViews([
    ['the side-by-side section', () => byId('side-by-side-unapplied').waitFor()],
    [
      "a task's changes, hunk by hunk",
      async () => {
        await gotoSession(fix.id);
        await byId('worktree-review').click();
        await byId('task-hunk-state').first().waitFor();
      },
    ],
    [
      'the conflicts in the composer',
      async () => {
        await gotoSession(fix.id);
        await byId('worktree-apply').click();
        await byId('conflict-notice').waitFor();
      },
    ],
  ]);
});

test('the new-task composer, transcripts (tool cards, an error), the approval, question, plan review and Tools modes, changes and restore have no serious violation', async () => {
  // JavaScript, so the diffs show every kind of highlighted token on the added and removed rows.
  const before = '// Adds one.\nexport function add(a) {\n  const label = "one";\n  return a + 1;\n}\n';
  const after = '// Adds two.\nexport function add(a) {\n  const label = "two";\n  return a + 2 || null;\n}\n';
  const plan = '# Add a response cache\n\n1. Wrap the client in a cache\n2. Expire entries after `5m`\n\n> Nothing changes until you approve.';
  ui.server = await startServer([
    {
      text: 'Changing the file, then checking it.',
      tool_calls: [
        { name: 'write', input: { path: 'app.js', content: after } },
        { name: 'bash', input: { command: 'cat app.js' } },
      ],
    },
    { text: 'Done: **app.js** now adds `2`.' },
    { text: 'I will clean the build folder.', tool_calls: [{ name: 'bash', input: { command: 'rm -rf build && echo cleaned' } }] },
    { text: 'Here is my plan.', tool_calls: [{ name: 'exit_plan_mode', input: { plan } }] },
    { text: 'One question.', tool_calls: [{ name: 'ask_user', input: { question: 'Which format should the notes use?', options: ['Markdown', 'Plain text'] } }] },
    { error: 'the scripted provider failed on purpose' },
    { text: 'spare' },
  ]);
  writeFileSync(join(ui.server.workspace, 'app.js'), before);

  // A finished turn with a write and a shell call, its checkpoint and its changes.
  const done = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'auto' });
  await gotoSession(done.id);
  await send('Change the app');
  await ui.page.locator('[data-testid="turn-status"][data-status="done"]').waitFor({ state: 'attached', timeout: 15_000 });
  // An approval waiting in the composer (Ask), and a plan review (Plan); both stay across reloads.
  const asking = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'ask' });
  await gotoSession(asking.id);
  await send('Clean the build');
  await byId('composer-mode-approval').waitFor();
  const planning = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'plan' });
  await gotoSession(planning.id);
  await send('Design a cache for the API client');
  await byId('composer-mode-plan-review').waitFor();
  // A question waiting for its answer, and a turn that ended in an error.
  const asked = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'auto' });
  await gotoSession(asked.id);
  await send('Write the release notes');
  await byId('composer-mode-question').waitFor();
  const failed = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'auto' });
  await gotoSession(failed.id);
  await send('Try something');
  await ui.page.locator('[data-testid="turn-status"]:not([data-status="running"])').waitFor({ state: 'attached', timeout: 15_000 });

  await auditViews([
    [
      'the new-task composer',
      async () => {
        await ui.page.goto(`${ui.server.base}/?token=${ui.server.token}#/new`);
        await byId('new-task-composer').waitFor();
      },
    ],
    [
      'a transcript with tool cards',
      async () => {
        await gotoSession(done.id);
        await byId('tool-card').first().waitFor();
        await byId('turn-changes').waitFor();
      },
    ],
    [
      'the changes view',
      async () => {
        await gotoSession(done.id);
        await byId('turn-changes').getByTestId('review-changes').click();
        await byId('changes-view').getByTestId('diff-hunk').first().waitFor();
        await byId('changes-view').locator('.diff__row--add .hljs-string').first().waitFor();
      },
    ],
    [
      'an approval waiting in the composer',
      async () => {
        await gotoSession(asking.id);
        await byId('composer-mode-approval').waitFor();
      },
    ],
    [
      'a plan review',
      async () => {
        await gotoSession(planning.id);
        await byId('composer-mode-plan-review').waitFor();
        await byId('plan-markdown').waitFor();
      },
    ],
    [
      'a question waiting in the composer',
      async () => {
        await gotoSession(asked.id);
        await byId('composer-mode-question').waitFor();
      },
    ],
    [
      'a turn that ended in an error',
      async () => {
        await gotoSession(failed.id);
        await byId('turn-error').waitFor();
      },
    ],
    [
      'the restore preview',
      async () => {
        await gotoSession(done.id);
        await byId('checkpoint-marker').first().getByTestId('checkpoint-restore').click();
        await byId('restore-view').getByTestId('diff-hunk').first().waitFor();
      },
    ],
    [
      'the Tools form',
      async () => {
        await gotoSession(done.id);
        await byId('open-fn-form').click();
        await byId('fn-tool-write').click();
        await byId('fn-field-path').waitFor();
      },
    ],
    [
      'the delete confirmation in the sidebar',
      async () => {
        await gotoSession(done.id);
        await ui.page.locator(`[data-testid="session-item"][data-session-id="${done.id}"] [data-testid="delete-session"]`).click();
        await byId('confirm-delete').waitFor();
      },
    ],
    [
      'the mode menu',
      async () => {
        await gotoSession(done.id);
        await byId('mode-selector').click();
        await ui.page.getByRole('menu').first().waitFor();
      },
    ],
  ]);
});

test("Settings with an MCP server, a rule and an external agent, the full-access confirmation, and the server's form in the composer have no serious violation", async () => {
  assert.ok(fixture && existsSync(fixture), 'set MCP_FIXTURE to the fixture MCP server (make e2e builds build/bin/mcp-fixture)');
  ui.server = await startServer([
    { text: 'Let me greet you.', tool_calls: [{ name: 'mcp__notes__greet', input: {} }] },
    { text: 'Running the check.', tool_calls: [{ name: 'bash', input: { command: 'echo a11y-rule' } }] },
    { text: 'The check passed.' },
    { text: 'spare' },
  ]);
  // Added, a server lists its tools for review; a second one stays under review, so both are audited.
  const added = await api('MCP.Add', { name: 'notes', transport: 'stdio', command: fixture });
  await api('MCP.Enable', { id: added.id, tools: Object.fromEntries(added.tools.map((t) => [t.name, t.seen])) });
  await api('MCP.Add', { name: 'notes-review', transport: 'stdio', command: fixture });
  // The server's own form (an elicitation), waiting in the composer.
  const greeting = await api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'auto' });
  await gotoSession(greeting.id);
  await send('Greet me');
  await ui.page.locator('[data-testid="composer-mode-approval"], [data-testid="composer-mode-elicitation"]').first().waitFor();
  if (await byId('composer-mode-approval').count()) await byId('approval-allow-once').click();
  await byId('composer-mode-elicitation').waitFor();
  // A rule from an "Always allow" answer, and an external agent: Settings lists both.
  const ruleMaker = await api('Sessions.Create', { workspace: ui.server.workspace, permissionMode: 'ask' });
  await api('Composer.Send', { sessionId: ruleMaker.id, text: 'Run the check.', interactionMode: 'smart', executionOverride: 'execute' });
  const [approval] = await eventually(async () => {
    const pending = await api('Decisions.Pending', { id: ruleMaker.id });
    return pending.length > 0 && pending;
  }, 'the approval');
  await api('Decisions.Resolve', { id: approval.id, choice: 'allow_always' });
  await eventually(async () => (await api('Settings.Rules')).length > 0, 'the rule to be stored');
  await api('Settings.SetExternalAgents', { commands: ['my-acp-agent --stdio'] });
  await auditViews([
    [
      "an MCP server's form in the composer",
      async () => {
        await gotoSession(greeting.id);
        await byId('composer-mode-elicitation').waitFor();
      },
    ],
    [
      'Settings',
      async () => {
        await byId('nav-settings').click();
        await byId('permissions-section').waitFor();
        await byId('mcp-server').first().waitFor();
        await byId('mcp-tool').first().waitFor();
        await byId('rule-item').waitFor();
        await byId('external-agent-remove').waitFor();
      },
    ],
    [
      'Settings: the full-access confirmation',
      async () => {
        await byId('nav-settings').click();
        await byId('default-permission-full').locator('xpath=..').click();
        await byId('full-access-confirm').waitFor();
      },
    ],
  ]);
});
