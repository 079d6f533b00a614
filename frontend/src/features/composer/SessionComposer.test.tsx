import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../app/App';
import { preloadViews } from '../../app/views';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { createApi } from '../../bridge';
import { createSettingsApi } from '../../bridge/settingsApi';
import { session } from '../../test/fakeTransport';

// The views are chunks of their own, loaded once the list is shown: loaded here first, so each
// test waits for what it tests, not for a module's first transform.
beforeAll(() => preloadViews());

async function openSession(init?: (f: FakeDesk) => void) {
  const fake = new FakeDesk({ sessions: [{ ...session('s1', 'Work', '2025-01-01T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'ask' }] });
  init?.(fake);
  render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
  await screen.findByTestId('composer');
  await waitFor(() => expect(fake.calls.some((c) => c.method === 'Sessions.Transcript')).toBe(true));
  return { fake, user: userEvent.setup() };
}

const composer = () => screen.getByTestId('composer');
const mode = () => composer().dataset.mode;
const approval = (id: string, command = 'rm -rf build') => ({
  id,
  sessionId: 's1',
  kind: 'approval' as const,
  payload: { tool: 'bash', kind: 'bash', summary: command, command, reasonKey: 'gate.reason.shell_not_read_only' },
});

describe('the session composer', () => {
  it('morphs into an approval in place and sends Reject with the reason', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(approval('d1')));
    expect(mode()).toBe('approval');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('composer-mode-title').textContent).toBe('Run command');
    expect(screen.getByTestId('approval-summary').textContent).toContain('rm -rf build');
    expect(composer().textContent).toContain('The command is not on the read-only list');
    // The controls row is still there, unchanged.
    expect(screen.getByTestId('mode-selector')).toBeTruthy();

    await user.type(screen.getByTestId('approval-reason'), 'Not on this branch');
    await user.click(screen.getByTestId('approval-reject'));
    await waitFor(() => expect(mode()).toBe('idle'));
    expect(fake.resolved).toEqual([{ id: 'd1', choice: 'reject', reason: 'Not on this branch' }]);
  });

  it("renders an external agent's approval from its request: who asks, the diff, and a truthful reason label", async () => {
    const { fake } = await openSession();
    const diff = '--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,2 @@\n+line one\n+line two';
    act(
      () =>
        void fake.ask({
          id: 'd1',
          sessionId: 's1',
          kind: 'approval' as const,
          payload: { tool: 'Write notes.txt', kind: 'edit', summary: diff, diff, path: '/w/notes.txt', agent: 'opencode', reasonKey: 'gate.reason.ask_mode' },
        }),
    );
    expect(screen.getByTestId('approval-agent').textContent).toBe('opencode asks to:');
    expect(screen.getByTestId('composer-mode-title').textContent).toBe('Write notes.txt');
    const summary = screen.getByTestId('approval-summary');
    const added = summary.querySelectorAll('[data-diff="add"]');
    expect([...added].map((el) => el.textContent?.trim())).toEqual(['+line one', '+line two']);
    expect(summary.querySelectorAll('[data-diff="hunk"]')).toHaveLength(1);
    const reason = screen.getByTestId('approval-reason') as HTMLInputElement;
    expect(reason.placeholder).toContain('told to the agent at its next prompt');
  });

  it('shows an external agent starting when its session opens, and its failure', async () => {
    const { fake } = await openSession();
    act(() => fake.emit('agent.status', { sessionId: 's1', agent: 'opencode acp', name: 'opencode', state: 'starting' }));
    expect(screen.getByTestId('agent-status').textContent).toBe('Starting opencode…');
    act(() => fake.emit('agent.status', { sessionId: 's1', agent: 'opencode acp', name: 'opencode', state: 'ready' }));
    expect(screen.queryByTestId('agent-status')).toBeNull();
    act(() => fake.emit('agent.status', { sessionId: 'other', agent: 'x', name: 'x', state: 'starting' }));
    expect(screen.queryByTestId('agent-status')).toBeNull();
    act(() => fake.emit('agent.status', { sessionId: 's1', agent: 'opencode acp', name: 'opencode', state: 'failed', error: 'EXTERNAL_AGENT_START_TIMEOUT: too slow' }));
    expect(screen.getByTestId('agent-status').textContent).toContain('opencode could not start: EXTERNAL_AGENT_START_TIMEOUT');
  });

  it('offers the four approval answers and truncates a long command head-and-tail', async () => {
    const { fake, user } = await openSession();
    const long = Array.from({ length: 40 }, (_, i) => `echo line-${i + 1}`).join('\n');
    act(() => void fake.ask(approval('d1', long)));
    for (const id of ['approval-allow-once', 'approval-allow-session', 'approval-allow-always', 'approval-reject']) {
      expect(screen.getByTestId(id)).toBeTruthy();
    }
    const summary = screen.getByTestId('approval-summary');
    expect(summary.textContent).toContain('echo line-1');
    expect(summary.textContent).toContain('echo line-40');
    expect(summary.textContent).not.toContain('echo line-20\n');
    expect(screen.getByTestId('approval-summary-gap').textContent).toContain('30');
    await user.click(screen.getByTestId('approval-summary-toggle'));
    expect(summary.textContent).toContain('echo line-20');
    await user.click(screen.getByTestId('approval-allow-session'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'allow_session' }]));
  });

  it('shows two decisions one after the other', async () => {
    const { fake, user } = await openSession();
    act(() => {
      fake.ask(approval('d1'));
      fake.ask({ id: 'd2', sessionId: 's1', kind: 'question', payload: { question: 'Which branch?', options: ['main', 'dev'] } });
    });
    expect(mode()).toBe('approval');
    expect(screen.getByTestId('chip-more-decisions').textContent).toContain('1');
    await user.click(screen.getByTestId('approval-allow-once'));
    await waitFor(() => expect(mode()).toBe('question'));
    expect(screen.getByTestId('question-text').textContent).toBe('Which branch?');
    expect(screen.getByTestId('question-answer')).toHaveProperty('disabled', true);
    await user.click(screen.getAllByTestId('question-option')[1]!);
    await user.click(screen.getByTestId('question-answer'));
    await waitFor(() => expect(mode()).toBe('idle'));
    expect(fake.resolved[1]).toEqual({ id: 'd2', selected: ['dev'] });
  });

  it('leaves the mode with the note "No response, timed out." on a timeout', async () => {
    const { fake } = await openSession();
    act(() => void fake.ask(approval('d1')));
    act(() => fake.emit('decision.resolved', { id: 'd1', sessionId: 's1', kind: 'approval', outcome: 'timed_out', reasonKey: 'decision.reason.timed_out' }));
    expect(mode()).toBe('idle');
    expect(screen.getByTestId('chip-note').textContent).toBe('No response, timed out.');
  });

  it('shows an entry the server could not read as a localized line, never skipping it', async () => {
    await openSession((f) => {
      f.transcriptOf('s1').items.push(
        { type: 'user', turnId: 't1', text: 'before', steer: false },
        { type: 'unreadable', turnId: '', seq: 7, logType: 'tool.result' },
        { type: 'user', turnId: 't2', text: 'after', steer: false },
      );
    });
    const line = await screen.findByTestId('log-unreadable');
    expect(line.dataset.seq).toBe('7');
    expect(line.textContent).toContain('Entry 7 of this history could not be read (tool.result)');
    const texts = screen.getAllByTestId('msg-user').map((m) => m.textContent);
    expect(texts).toEqual(['before', 'after']);
  });

  it('says so when the boundary after a turn failed, in the words of its error kind', async () => {
    const { fake } = await openSession();
    act(() => fake.emit('session.failed', { sessionId: 's1', kind: 'QUEUED_MESSAGE_UNREADABLE' }));
    const notice = await screen.findByTestId('composer-control-error');
    expect(notice.textContent).toContain('A queued message could not be read');
    act(() => fake.emit('session.failed', { sessionId: 'other', kind: 'STORE_FAILURE' }));
    expect(screen.getAllByTestId('composer-control-error')).toHaveLength(1);
  });

  it('clears a decision answered in another window', async () => {
    const { fake } = await openSession();
    act(() => void fake.ask(approval('d1')));
    act(() => fake.emit('decision.resolved', { id: 'd1', sessionId: 's1', kind: 'approval', outcome: 'answered' }));
    expect(mode()).toBe('idle');
    expect(screen.queryByTestId('chip-note')).toBeNull();
  });

  it('every status label tells the truth of the turn now: a plan approved, then a write waiting', async () => {
    const { fake } = await openSession();
    const started = { sessionId: 's1', turnId: 't1', executionMode: 'plan', reasonKey: 'route.reason.override', prompt: 'Plan it' };
    act(() => fake.emit('turn.started', started));
    expect(screen.getByTestId('chip-turn').textContent).toBe('Running as Plan');
    // The plan is approved inside the turn: the mode leaves plan, and so does the label.
    act(() => fake.emit('session.mode', { sessionId: 's1', interactionMode: 'smart', executionOverride: '' }));
    expect(screen.getByTestId('mode-selector').textContent).toBe('Smart');
    expect(screen.getByTestId('chip-turn').textContent).toBe('Running as Execute');
    act(() => void fake.ask({ ...approval('d1'), payload: { tool: 'write', kind: 'write', summary: 'path: a.txt', path: 'a.txt' } }));
    expect(screen.getByTestId('chip-turn').textContent).toBe('Execute · waiting for your approval');
    expect(screen.getByTestId('turn-status').textContent).toContain('Waiting for you');
    act(() => fake.emit('decision.resolved', { id: 'd1', sessionId: 's1', kind: 'approval', outcome: 'answered' }));
    expect(screen.getByTestId('chip-turn').textContent).toBe('Running as Execute');
    expect(screen.getByTestId('turn-status').textContent).toContain('Working');
  });

  it('ignores decisions of other sessions', async () => {
    const { fake } = await openSession();
    act(() => void fake.ask({ ...approval('x'), sessionId: 'other' }));
    expect(mode()).toBe('idle');
  });

  it('restores a pending decision after a reload', async () => {
    await openSession((f) => {
      f.transcriptOf('s1').pending.push({ ...approval('d9'), turnId: 't1', createdAt: '2025-01-01T10:00:00Z', deadline: '' });
    });
    await waitFor(() => expect(mode()).toBe('approval'));
  });

  it('renders a plan review as sanitized Markdown titled by its first heading', async () => {
    const { fake, user } = await openSession();
    const plan = '# Migrate the store\n\n1. Add the column\n2. Backfill\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>';
    act(() => void fake.ask({ id: 'p1', sessionId: 's1', kind: 'plan_review', payload: { plan } }));
    expect(mode()).toBe('plan-review');
    expect(screen.getByTestId('composer-mode-title').textContent).toBe('Migrate the store');
    const md = screen.getByTestId('plan-markdown');
    expect(md.querySelectorAll('li')).toHaveLength(2);
    expect(md.innerHTML).not.toContain('onerror');
    expect(md.querySelector('script')).toBeNull();
    await user.type(screen.getByTestId('plan-feedback'), 'Backfill in batches');
    await user.click(screen.getByTestId('plan-keep-planning'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'p1', choice: 'keep_planning', feedback: 'Backfill in batches' }]));
  });

  it('runs a tool from the fn-form; Escape leaves it; a system decision cancels it', async () => {
    const { fake, user } = await openSession();
    // Named by its label; what it does is its description (WCAG 2.5.3).
    const tools = screen.getByRole('button', { name: 'Tools', description: 'Run a tool yourself' });
    expect(tools).toBe(screen.getByTestId('open-fn-form'));
    await user.click(tools);
    expect(mode()).toBe('fn-form');
    await user.keyboard('{Escape}');
    expect(mode()).toBe('idle');

    await user.click(screen.getByTestId('open-fn-form'));
    const path = await screen.findByTestId('fn-field-path');
    expect(path.textContent).toContain('Path');
    act(() => void fake.ask(approval('d1')));
    expect(mode()).toBe('approval');
    act(() => fake.emit('decision.resolved', { id: 'd1', sessionId: 's1', kind: 'approval', outcome: 'answered' }));
    expect(mode()).toBe('idle');

    await user.click(screen.getByTestId('open-fn-form'));
    await user.click(await screen.findByTestId('fn-form-run'));
    expect(within(screen.getByTestId('fn-field-path')).getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    await user.type(within(screen.getByTestId('fn-field-path')).getByRole('textbox'), 'README.md');
    await user.click(screen.getByTestId('fn-form-run'));
    await waitFor(() => expect(mode()).toBe('idle'));
    expect(fake.calls.find((c) => c.method === 'Composer.RunTool')?.req).toEqual({ sessionId: 's1', name: 'read', input: { path: 'README.md' } });
    expect((await screen.findByTestId('direct-card')).textContent).toContain('file text');
  });

  it('shows the scope a saved answer keeps and sends the one the person picked', async () => {
    const { fake, user } = await openSession();
    const payload = { ...approval('d1', 'npm test -- --watch').payload, scopes: [{ id: 'exact', command: 'npm test -- --watch' }, { id: 'prefix', command: 'npm test' }] };
    act(() => void fake.ask({ ...approval('d1'), payload }));
    const scope = screen.getByTestId('approval-scope');
    expect(scope.textContent).toContain('npm test -- --watch');
    expect(screen.getByTestId('approval-scope-prefix').textContent).toContain('npm test …');
    expect(within(screen.getByTestId('approval-scope-exact')).getByRole('radio')).toHaveProperty('checked', true);
    await user.click(within(screen.getByTestId('approval-scope-prefix')).getByRole('radio'));
    await user.click(screen.getByTestId('approval-allow-always'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'allow_always', scope: 'prefix' }]));
  });

  it('saves the exact call by default, and an escalation offers only Allow once and Reject', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask({ ...approval('d1'), payload: { ...approval('d1').payload, scopes: [{ id: 'exact', command: 'rm -rf build' }] } }));
    expect(screen.getByTestId('approval-scope-exact').textContent).toBe('rm -rf build');
    await user.click(screen.getByTestId('approval-allow-session'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'allow_session' }]));

    const escalation = { ...approval('d2', 'curl https://example.com').payload, escalation: 'network', reasonKey: 'gate.reason.escalate.network' };
    act(() => void fake.ask({ ...approval('d2'), payload: escalation }));
    await waitFor(() => expect(mode()).toBe('approval'));
    expect(screen.getByTestId('approval-escalation').textContent).toContain('only be allowed once');
    expect(screen.queryByTestId('approval-allow-session')).toBeNull();
    expect(screen.queryByTestId('approval-allow-always')).toBeNull();
    expect(screen.queryByTestId('approval-scope')).toBeNull();
    expect(composer().textContent).toContain('reach the network, outside the sandbox');
  });

  it('a changed MCP tool shows its change and offers only "Approve the change and run" and Reject', async () => {
    const { fake, user } = await openSession();
    const diff = ' {\n-  "description": "Echoes the text back.",\n+  "description": "Echoes the text back, and mails it home.",\n   "inputSchema": {}\n }';
    const payload = { tool: 'mcp__notes__echo', kind: 'mcp', summary: 'mcp:notes/echo\n{}', server: 'notes', toolChanged: true, diff, reasonKey: 'gate.reason.mcp_changed', code: 'MCP_TOOL_CHANGED' };
    act(() => void fake.ask({ ...approval('d1'), payload }));
    await waitFor(() => expect(mode()).toBe('approval'));
    expect(screen.getByTestId('approval-tool-changed').textContent).toContain('“notes” changed since you approved it');
    const shown = screen.getByTestId('approval-diff');
    expect([...shown.querySelectorAll('[data-diff="del"]')].map((el) => el.textContent?.trim())).toEqual(['-  "description": "Echoes the text back.",']);
    expect([...shown.querySelectorAll('[data-diff="add"]')].map((el) => el.textContent?.trim())).toEqual(['+  "description": "Echoes the text back, and mails it home.",']);
    for (const id of ['approval-allow-once', 'approval-allow-session', 'approval-allow-always', 'approval-scope']) expect(screen.queryByTestId(id)).toBeNull();
    expect(screen.getByTestId('approval-approve-change').textContent).toBe('Approve the change and run');
    await user.click(screen.getByTestId('approval-approve-change'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'allow_once' }]));
  });

  it('offers no Tools form in Chat, where no tool can run', async () => {
    const { fake } = await openSession((f) => {
      f.sessions[0]!.interactionMode = 'chat';
    });
    expect(screen.queryByTestId('open-fn-form')).toBeNull();
    void fake;
  });

  it('a host the network proxy asks about is the card\'s title, and every answer is offered', async () => {
    const { fake, user } = await openSession();
    const host = { ...approval('d1', 'registry.npmjs.org').payload, kind: 'host', command: 'npm ci', reasonKey: 'gate.reason.host', reasonArgs: { Host: 'registry.npmjs.org' } };
    act(() => void fake.ask({ ...approval('d1'), payload: host }));
    await waitFor(() => expect(mode()).toBe('approval'));
    expect(composer().textContent).toContain('Reach registry.npmjs.org');
    expect(composer().textContent).toContain('reach registry.npmjs.org through AgentDesk');
    expect(screen.getByTestId('approval-allow-always')).toBeTruthy();
    await user.click(screen.getByTestId('approval-allow-session'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'allow_session' }]));
  });

  it('a change to .git may be allowed for this session, never always', async () => {
    const { fake, user } = await openSession();
    const git = { ...approval('d1', 'git commit -m fix').payload, escalation: 'git', reasonKey: 'gate.reason.escalate.git' };
    act(() => void fake.ask({ ...approval('d1'), payload: git }));
    await waitFor(() => expect(mode()).toBe('approval'));
    expect(screen.getByTestId('approval-escalation').textContent).toContain('hooks and .git/config stay read-only');
    expect(screen.queryByTestId('approval-allow-always')).toBeNull();
    expect(composer().textContent).toContain('changes the repository (.git)');
    await user.click(screen.getByTestId('approval-allow-session'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'allow_session' }]));
  });

  it('a direct run the permission asks about waits for an inline confirmation', async () => {
    const { fake, user } = await openSession((f) => f.asksFor.add('read'));
    await user.click(screen.getByTestId('open-fn-form'));
    await user.type(within(await screen.findByTestId('fn-field-path')).getByRole('textbox'), '/etc/hosts');
    await user.click(screen.getByTestId('fn-form-run'));
    const confirm = await screen.findByTestId('fn-form-confirm');
    expect(confirm.textContent).toContain('The path is outside the workspace');
    expect(screen.getByTestId('fn-form-confirm-summary').textContent).toContain('Read /etc/hosts');
    expect(mode()).toBe('fn-form');
    expect(screen.queryByTestId('direct-card')).toBeNull();

    await user.click(screen.getByTestId('fn-form-back'));
    expect(screen.getByTestId('fn-field-path')).toBeTruthy();
    await user.click(screen.getByTestId('fn-form-run'));
    await user.click(await screen.findByTestId('fn-form-confirm-run'));
    await waitFor(() => expect(mode()).toBe('idle'));
    const runs = fake.calls.filter((c) => c.method === 'Composer.RunTool').map((c) => c.req);
    expect(runs).toEqual([
      { sessionId: 's1', name: 'read', input: { path: '/etc/hosts' } },
      { sessionId: 's1', name: 'read', input: { path: '/etc/hosts' } },
      { sessionId: 's1', name: 'read', input: { path: '/etc/hosts' }, approved: true },
    ]);
    expect((await screen.findByTestId('direct-card')).textContent).toContain('file text');
  });

  it('selector: Advanced… → Plan reads "Smart · Plan"; Shift+Tab cycles Smart and Chat', async () => {
    const { fake, user } = await openSession();
    await user.click(screen.getByTestId('mode-selector'));
    await user.click(screen.getByTestId('mode-advanced'));
    await user.click(screen.getByTestId('mode-option-plan'));
    await waitFor(() => expect(screen.getByTestId('mode-selector').textContent).toBe('Smart · Plan'));
    expect(fake.calls.filter((c) => c.method === 'Sessions.Configure').map((c) => c.req)).toEqual([
      { id: 's1', interactionMode: 'smart', executionOverride: 'plan' },
    ]);

    await user.click(screen.getByTestId('composer-input'));
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await waitFor(() => expect(screen.getByTestId('mode-selector').textContent).toBe('Chat'));
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await waitFor(() => expect(screen.getByTestId('mode-selector').textContent).toBe('Smart'));
  });

  it('shows a queued switch as "Next turn: Chat" with a cancel', async () => {
    const { fake, user } = await openSession((f) => (f.transcriptOf('s1').running = 't1'));
    await user.click(screen.getByTestId('mode-selector'));
    await user.click(screen.getByTestId('mode-option-chat'));
    act(() => fake.emit('queue.changed', { sessionId: 's1', items: [{ switch: { interaction_mode: 'chat', execution_override: '' } }] }));
    expect(screen.getByTestId('chip-queued-switch').textContent).toContain('Next turn: Chat');
    // In force until the boundary.
    expect(screen.getByTestId('mode-selector').textContent).toBe('Smart');
    await user.click(screen.getByTestId('chip-unqueue'));
    expect(fake.calls.find((c) => c.method === 'Composer.Unqueue')?.req).toEqual({ sessionId: 's1', index: 0 });
  });

  it('Full access asks inline, then applies to this session only', async () => {
    const { fake, user } = await openSession();
    await user.click(screen.getByTestId('permission-picker'));
    await user.click(screen.getByTestId('permission-option-full'));
    const confirm = screen.getByTestId('full-access-confirm');
    expect(within(screen.getByTestId('composer-controls')).getByTestId('full-access-confirm')).toBe(confirm);
    expect(fake.calls.some((c) => c.method === 'Sessions.SetPermission')).toBe(false);
    await user.click(screen.getByTestId('full-access-confirm-button'));
    await waitFor(() => expect(screen.getByTestId('permission-label').textContent).toBe('Full access'));
    expect(fake.calls.find((c) => c.method === 'Sessions.SetPermission')?.req).toEqual({ id: 's1', permissionMode: 'full' });
    expect(fake.defaultPermission).toBe('ask');
  });

  it('streams a turn: the mode chip, text, a tool card with its verdict, and Stop while it runs', async () => {
    const { fake, user } = await openSession();
    await user.type(screen.getByTestId('composer-input'), 'List the files{Enter}');
    await waitFor(() => expect(screen.getByTestId('msg-user').textContent).toBe('List the files'));
    act(() => {
      fake.emit('turn.started', { sessionId: 's1', turnId: 't1', executionMode: 'analyze', reasonKey: 'route.reason.analyze' });
      fake.emit('turn.delta', { sessionId: 's1', turnId: 't1', text: 'Let me ' });
      fake.emit('turn.delta', { sessionId: 's1', turnId: 't1', text: '**look**.' });
      fake.emit('tool.call', { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'bash', input: { command: 'ls' }, verdict: 'allow', layer: 'rule' });
      fake.emit('tool.output', { sessionId: 's1', turnId: 't1', callId: 'c1', text: 'a.go\n' });
    });
    // The streamed events are drawn at the next frame, all at once.
    await waitFor(() => expect(screen.getByTestId('tool-output').textContent).toBe('a.go\n'));
    expect(screen.getByTestId('turn-chip').dataset.mode).toBe('analyze');
    expect(screen.getByTestId('turn-chip').textContent).toContain('the request asks a question');
    expect(screen.getByTestId('msg-assistant').querySelector('strong')?.textContent).toBe('look');
    expect(screen.getByTestId('tool-verdict').textContent).toBe('Allowed by rule');
    expect(screen.getByTestId('tool-output').textContent).toBe('a.go\n');
    expect(screen.getByTestId('chip-turn').textContent).toBe('Running as Analyze');
    await user.click(screen.getByTestId('composer-stop'));
    expect(fake.calls.find((c) => c.method === 'Composer.Cancel')?.req).toEqual({ id: 's1' });
  });

  it("labels an external agent's call by the gate's verdict once it asked, and as the agent's own otherwise", async () => {
    const { fake, user } = await openSession();
    await user.type(screen.getByTestId('composer-input'), 'go{Enter}');
    await waitFor(() => expect(screen.getByTestId('msg-user')).toBeTruthy());
    act(() => {
      fake.emit('turn.started', { sessionId: 's1', turnId: 't1', executionMode: 'execute', reasonKey: 'route.reason.execute' });
      fake.emit('tool.call', { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'List files', input: {}, summary: '.', verdict: 'external', layer: 'external' });
    });
    await waitFor(() => expect(screen.getByTestId('tool-verdict').textContent).toBe("The agent's own"));
    act(() => fake.emit('tool.call', { sessionId: 's1', turnId: 't1', callId: 'c1', name: 'List files', input: {}, summary: 'ls -la', verdict: 'allow', layer: 'mode' }));
    await waitFor(() => expect(screen.getByTestId('tool-verdict').textContent).toBe('Allowed'));
    expect(screen.getAllByTestId('tool-card')).toHaveLength(1);
  });
});
