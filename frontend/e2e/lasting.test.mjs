// Never lost, end-to-end: real Chromium against `agentdesk serve --provider scripted`. A decision
// that waits when the server is killed comes back, by the same id, when it starts again, and the
// turn goes on once it is answered; a long turn pauses at its step limit and goes on when the
// person says so. Run with AGENTDESK_BIN=/path/to/agentdesk npm run e2e.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiOf, browserSuite, eventually, startServer, tempDir } from './harness.mjs';

const ui = browserSuite('lasting', { ignoreConsole: /Failed to load resource|net::ERR/ });
const { byId, shot } = ui;

// serve starts `agentdesk serve` over the folder dir (its data, script and workspace stay there
// across restarts).
async function serve(dir, responses) {
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  mkdirSync(join(dir, 'ws'), { recursive: true });
  const s = await startServer(['--data-dir', join(dir, 'data'), '--provider', 'scripted', '--script', script], { env: { HOME: dir } });
  return Object.assign(s, { api: apiOf(s), workspace: join(dir, 'ws') });
}

async function send(text) {
  await byId('composer-input').fill(text);
  await byId('composer-input').press('Enter');
}

test('an approval waiting when serve is killed comes back after the restart, and answering it finishes the turn', async () => {
  const dir = tempDir('agentdesk-lasting-');
  const responses = [
    { text: 'I will write the notes file.', tool_calls: [{ name: 'bash', input: { command: 'echo kept > notes.txt' } }] },
    { text: 'Wrote notes.txt.' },
  ];
  ui.server = await serve(dir, responses);
  const s = await ui.server.api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'ask' });
  await ui.open(ui.server, s.id);
  await send('Write the notes');
  await byId('composer-mode-approval').waitFor();
  const [before] = await ui.server.api('Decisions.Pending', { id: s.id });
  assert.equal(before.kind, 'approval');

  ui.server.proc.removeAllListeners('exit');
  const killed = new Promise((r) => ui.server.proc.once('exit', r));
  ui.server.proc.kill('SIGKILL');
  await killed;
  assert.equal(existsSync(join(ui.server.workspace, 'notes.txt')), false, 'the unanswered command ran');

  ui.server = await serve(dir, responses);
  // The turn is taken up as the server starts, and asks again as soon as it has read itself back.
  const again = await eventually(async () => (await ui.server.api('Decisions.Pending', { id: s.id }))[0], 'the decision asked again', 10_000)
    .catch((e) => assert.fail(`${e.message}\n${ui.server.output}`));
  assert.equal(again?.id, before.id, 'the same decision waits after the restart');
  assert.deepEqual(again.payload, before.payload);
  await ui.open(ui.server, s.id);
  await byId('composer-mode-approval').waitFor();
  assert.match(await byId('composer').textContent(), /echo kept > notes\.txt/);
  await shot('01-approval-after-restart');
  await byId('approval-allow-once').click();
  await byId('msg-assistant').getByText('Wrote notes.txt.').waitFor();
  assert.equal(readFileSync(join(ui.server.workspace, 'notes.txt'), 'utf8').trim(), 'kept');
});

test('a 60-step turn pauses at a limit of 50, and Continue carries it to its end', async () => {
  const dir = tempDir('agentdesk-lasting-');
  const steps = Array.from({ length: 59 }, (_, i) => ({ tool_calls: [{ name: 'glob', input: { pattern: `*.step${i}` } }] }));
  ui.server = await serve(dir, [...steps, { text: 'All sixty steps done.' }]);
  await ui.server.api('Settings.SetStepLimit', { value: '50' });
  const s = await ui.server.api('Sessions.Create', { workspace: ui.server.workspace, interactionMode: 'smart', executionOverride: 'execute', permissionMode: 'full' });
  await ui.open(ui.server, s.id);
  await send('Take sixty steps');
  await byId('composer-mode-continue').waitFor({ timeout: 30_000 });
  assert.equal(await byId('composer-mode-title').textContent(), 'Paused after 50 model requests');
  await shot('02-paused-at-the-step-limit');
  await byId('continue-continue').click();
  await byId('msg-assistant').getByText('All sixty steps done.').waitFor({ timeout: 30_000 });
  assert.equal(await byId('composer').getAttribute('data-mode'), 'idle');
});
