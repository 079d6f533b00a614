// Parallel tasks, each in its own worktree, end to end: real Chromium against `agentdesk serve
// --provider scripted` over a real git repository. Two tasks started from the new-task composer
// with "Run in an isolated copy" each answer an approval in their own worktree; after a restart
// both reopen there. Both edited the same file, around the person's own uncommitted edit: one is
// applied hunk by hunk, the other's overlapping hunk is shown in the composer as a conflict; it is
// removed (its work kept) and restored. The person's repository passes git fsck after every step.
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

const numbered = (edit = {}) => Array.from({ length: 20 }, (_, i) => `${edit[i + 1] ?? `line ${i + 1}`}\n`).join('');

test('two isolated tasks on one repository: each in its own worktree, back after a restart, applied hunk by hunk with the overlap a conflict, one removed and restored', async () => {
  const dir = tempDir('agentdesk-worktrees-');
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'app.txt'), numbered());
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '-m', 'start');
  // One script for the server, in the order the model is asked: A's call, B's call (while A
  // waits for its approval), then B's answer and A's, as the approvals are given.
  const responses = [
    { text: 'Editing app.txt.', tool_calls: [{ name: 'bash', input: { command: "sed -i 's/^line 2$/line 2 by a/; s/^line 18$/line 18 by a/' app.txt" } }] },
    { text: 'Adding b.txt.', tool_calls: [{ name: 'bash', input: { command: "sed -i 's/^line 18$/line 18 by b/' app.txt && echo from-b > b.txt" } }] },
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
  assert.equal(readFileSync(join(a.workspace, 'app.txt'), 'utf8'), numbered({ 2: 'line 2 by a', 18: 'line 18 by a' }));
  assert.equal(readFileSync(join(b.workspace, 'b.txt'), 'utf8'), 'from-b\n');
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), numbered(), "the person's folder is untouched");
  assert.equal(existsSync(join(repo, 'b.txt')), false);
  // The sidebar lists both side by side under their repository, each with its change not applied.
  await byId('side-by-side').getByRole('heading', { name: 'repo', level: 3 }).waitFor();
  await sideTask('Task A').getByText('1 file not applied').waitFor();
  await sideTask('Task B').getByText('2 files not applied').waitFor();
  assert.match(await sideTask('Task A').getByTestId('side-by-side-state').textContent(), /^(Idle|Running)$/);
  // Meanwhile the person edits the same file themselves, without committing.
  writeFileSync(join(repo, 'app.txt'), numbered({ 10: "the person's line 10" }));

  await stopServer(ui.server.proc);
  ui.server = await serve(dir, responses);
  for (const s of [a, b]) {
    await ui.open(ui.server, s.id);
    assert.equal(await byId('session-workspace').textContent(), s.workspace, 'the session reopens in its own worktree');
    assert.match(await byId('worktree-branch').textContent(), /^agentdesk\/[a-z0-9]+\/task-[ab]-/, 'the branch is named after the task');
  }
  await shot('01-task-b-in-its-worktree');

  // A comes back hunk by hunk from its Changes: the second hunk first, then the rest.
  await ui.open(ui.server, a.id);
  await byId('worktree-review').click();
  const page = ui.page;
  await page.getByRole('button', { name: 'Apply to my folder: hunk 2 of app.txt' }).click();
  await page.locator('[data-testid="task-hunk-state"][data-state="applied"]').waitFor();
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), numbered({ 10: "the person's line 10", 18: 'line 18 by a' }));
  await shot('02-task-a-one-hunk-applied');
  await byId('task-file-apply').click();
  await page.locator('[data-testid="task-file-state"][data-state="applied"]').waitFor();
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), numbered({ 2: 'line 2 by a', 10: "the person's line 10", 18: 'line 18 by a' }));
  fsck(repo);
  await sideTask('Task A').getByTestId('side-by-side-unapplied').waitFor({ state: 'detached' });

  // B's change to line 18 overlaps A's: Apply leaves it, and the composer says which hunk.
  await ui.open(ui.server, b.id);
  await byId('worktree-apply').click();
  await byId('conflict-notice').getByText('app.txt (hunk 1)').waitFor();
  assert.equal(readFileSync(join(repo, 'b.txt'), 'utf8'), 'from-b\n');
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), numbered({ 2: 'line 2 by a', 10: "the person's line 10", 18: 'line 18 by a' }));
  await shot('03-task-b-conflict-in-the-composer');
  fsck(repo);

  await byId('worktree-remove').click();
  await byId('worktree-removed').getByText(/Kept for a restore: app\.txt/).waitFor().catch(async (e) => assert.fail(`${e.message}\n${await byId('worktree-bar').textContent()}`));
  assert.equal(existsSync(b.workspace), false, 'the copy is gone');
  fsck(repo);
  await sideTask('Task B').waitFor({ state: 'detached' });
  await shot('04-task-b-removed-kept');
  await byId('worktree-restore').click();
  await byId('worktree-apply').waitFor();
  assert.equal(readFileSync(join(b.workspace, 'app.txt'), 'utf8'), numbered({ 18: 'line 18 by b' }), 'restored byte for byte');
  await sideTask('Task B').getByText('1 file not applied').waitFor();
  await sideTask('Task A').click();
  await ui.page.locator(`[data-testid="session-view"][data-session-id="${a.id}"]`).waitFor();
  await shot('05-side-by-side');
  fsck(repo);
});
