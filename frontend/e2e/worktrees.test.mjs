// Parallel tasks, each in its own worktree, end to end: real Chromium against `agentdesk serve
// --provider scripted` over a real git repository. Two tasks started from the new-task composer
// with "Run in an isolated copy" each answer an approval in their own worktree; after a restart
// both reopen there; one is applied to the person's folder, the other removed (its work kept)
// and restored. The person's repository passes git fsck after every step.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, startServer, stopServer, tempDir } from './harness.mjs';

const ui = browserSuite('worktrees', { ignoreConsole: /Failed to load resource|net::ERR/ });
const { byId, shot } = ui;

const git = (dir, ...args) =>
  execFileSync('git', ['-c', 'user.name=P', '-c', 'user.email=p@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
const fsck = (repo) => git(repo, 'fsck', '--strict', '--no-progress');
// A task in the sidebar's Side by side section, by its title.
const sideTask = (title) => byId('side-by-side').getByTestId('side-by-side-task').filter({ hasText: title });

async function serve(dir, responses) {
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const s = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  return Object.assign(s, { api: apiOf(s) });
}

// startTask starts a task from the new-task composer in repo and waits for its approval. The
// first is made isolated by hand; the second must already be, since the first is running there.
async function startTask(repo, text, { busy }) {
  await byId('new-session').click();
  await byId('new-task-workspace').fill(repo);
  await byId('isolation-choice').waitFor();
  if (busy) {
    await byId('isolation-busy').waitFor();
    assert.equal(await byId('isolated').isChecked(), true, 'a busy repository makes isolated the default');
  } else {
    assert.equal(await byId('isolated').isChecked(), false, 'nothing runs there yet: the folder itself is the default');
    await byId('isolated').check();
  }
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
  await byId('composer-mode-approval').waitFor();
}

test('two isolated tasks on one repository: each in its own worktree, back after a restart, one applied, one removed and restored', async () => {
  const dir = tempDir('agentdesk-worktrees-');
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'app.txt'), 'base\n');
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '-m', 'start');
  // One script for the server, in the order the model is asked: A's call, B's call (while A
  // waits for its approval), then B's answer and A's, as the approvals are given.
  const responses = [
    { text: 'Editing app.txt.', tool_calls: [{ name: 'bash', input: { command: 'echo from-a >> app.txt' } }] },
    { text: 'Adding b.txt.', tool_calls: [{ name: 'bash', input: { command: 'echo from-b > b.txt' } }] },
    { text: 'Task B done.' },
    { text: 'Task A done.' },
  ];
  ui.server = await serve(dir, responses);
  await ui.open(ui.server);
  await startTask(repo, 'Task A: edit app.txt', { busy: false });
  await startTask(repo, 'Task B: add b.txt', { busy: true });
  await shot('00-task-b-asks-while-a-waits');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Task B done.').waitFor();
  const sessions = (await ui.server.api('Sessions.List', {})).sessions;
  const a = sessions.find((s) => s.title.startsWith('Task A'));
  const b = sessions.find((s) => s.title.startsWith('Task B'));
  assert.ok(a && b, JSON.stringify(sessions));
  await ui.open(ui.server, a.id);
  await byId('composer-mode-approval').waitFor();
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Task A done.').waitFor();
  fsck(repo);
  assert.notEqual(a.workspace, b.workspace);
  for (const s of [a, b]) assert.ok(s.workspace.startsWith(join(dir, 'data') + '-worktrees'), s.workspace);
  assert.equal(readFileSync(join(a.workspace, 'app.txt'), 'utf8'), 'base\nfrom-a\n');
  assert.equal(readFileSync(join(b.workspace, 'b.txt'), 'utf8'), 'from-b\n');
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), 'base\n', "the person's folder is untouched");
  assert.equal(existsSync(join(repo, 'b.txt')), false);
  // The sidebar lists both side by side under their repository, each with its change not applied.
  await byId('side-by-side').getByRole('heading', { name: 'repo', level: 3 }).waitFor();
  for (const title of ['Task A', 'Task B']) await sideTask(title).getByText('1 file not applied').waitFor();
  assert.match(await sideTask('Task A').getByTestId('side-by-side-state').textContent(), /^(Idle|Running)$/);

  await stopServer(ui.server.proc);
  ui.server = await serve(dir, responses);
  for (const s of [a, b]) {
    await ui.open(ui.server, s.id);
    assert.equal(await byId('session-workspace').textContent(), s.workspace, 'the session reopens in its own worktree');
    assert.match(await byId('worktree-branch').textContent(), /^agentdesk\/[a-z0-9]+\/task-[ab]-/, 'the branch is named after the task');
  }
  await shot('01-task-b-in-its-worktree');

  await ui.open(ui.server, a.id);
  await byId('worktree-apply').click();
  await byId('worktree-result').getByText('1 file(s) written to your folder, 0 already there.').waitFor();
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), 'base\nfrom-a\n');
  fsck(repo);
  await sideTask('Task A').getByTestId('side-by-side-unapplied').waitFor({ state: 'detached' });

  await ui.open(ui.server, b.id);
  await byId('worktree-remove').click();
  await byId('worktree-removed').getByText(/Kept for a restore: b\.txt/).waitFor().catch(async (e) => assert.fail(`${e.message}\n${await byId('worktree-bar').textContent()}`));
  assert.equal(existsSync(b.workspace), false, 'the copy is gone');
  fsck(repo);
  await sideTask('Task B').waitFor({ state: 'detached' });
  await shot('02-task-b-removed-kept');
  await byId('worktree-restore').click();
  await byId('worktree-apply').waitFor();
  await sideTask('Task B').getByText('1 file not applied').waitFor();
  await sideTask('Task A').click();
  await ui.page.locator(`[data-testid="session-view"][data-session-id="${a.id}"]`).waitFor();
  await shot('03-side-by-side');
  assert.equal(readFileSync(join(b.workspace, 'b.txt'), 'utf8'), 'from-b\n', 'restored byte for byte');
  fsck(repo);
});
