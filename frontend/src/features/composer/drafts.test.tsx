import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../app/App';
import { preloadViews } from '../../app/views';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { createApi } from '../../bridge';
import { createSettingsApi } from '../../bridge/settingsApi';
import { session } from '../../test/fakeTransport';
import { decisionScope, drafts, MESSAGE } from '../drafts/draftStore';

beforeAll(() => preloadViews());
beforeEach(() => drafts.reset());

const desk = () =>
  new FakeDesk({
    sessions: [
      { ...session('s1', 'Work', '2025-01-02T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'ask' },
      { ...session('s2', 'Other', '2025-01-01T08:00:00Z'), interactionMode: 'smart', executionOverride: '', permissionMode: 'ask' },
    ],
  });

async function open(fake: FakeDesk) {
  const view = render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
  await screen.findByTestId('composer');
  return view;
}

/** The page goes away and comes back: the drafts it had typed were written before it left. */
async function reload(fake: FakeDesk, view: ReturnType<typeof render>) {
  drafts.flush();
  view.unmount();
  drafts.reset();
  return open(fake);
}

const input = () => screen.getByTestId('composer-input') as HTMLTextAreaElement;
const shownSession = () => screen.getByTestId('session-view').dataset.sessionId;

async function select(title: string, user: ReturnType<typeof userEvent.setup>) {
  const item = screen.getAllByTestId('session-item').find((el) => el.textContent?.includes(title));
  await user.click(item!.querySelector('button') ?? item!);
}

describe('drafts in the composer', () => {
  it('keeps a half-typed message per session, across a switch and a reload, and forgets it once sent', async () => {
    const fake = desk();
    const user = userEvent.setup();
    let view = await open(fake);
    await waitFor(() => expect(shownSession()).toBe('s1'));
    await user.type(input(), 'half a thought');

    await select('Other', user);
    await waitFor(() => expect(shownSession()).toBe('s2'));
    expect(input().value).toBe('');
    await select('Work', user);
    await waitFor(() => expect(shownSession()).toBe('s1'));
    expect(input().value).toBe('half a thought');

    view = await reload(fake, view);
    await waitFor(() => expect(shownSession()).toBe('s1'));
    expect(input().value).toBe('half a thought');

    await user.type(input(), '{Enter}');
    await waitFor(() => expect(input().value).toBe(''));
    expect(drafts.get('s1', MESSAGE)).toBeUndefined();
    await reload(fake, view);
    expect(input().value).toBe('');
  });

  it('keeps a half-typed reject reason across a reload and forgets it once answered', async () => {
    const fake = desk();
    const user = userEvent.setup();
    const view = await open(fake);
    await waitFor(() => expect(shownSession()).toBe('s1'));
    const decision = { id: 'd1', sessionId: 's1', kind: 'approval' as const, payload: { tool: 'bash', kind: 'bash', summary: 'rm -rf build', command: 'rm -rf build' } };
    act(() => void fake.ask(decision));
    await user.type(screen.getByTestId('approval-reason'), 'not on main');

    fake.transcriptOf('s1').pending.push({ ...decision, turnId: 't1', createdAt: '2025-01-02T10:00:00Z', deadline: '' });
    await reload(fake, view);
    const reason = (await screen.findByTestId('approval-reason')) as HTMLInputElement;
    expect(reason.value).toBe('not on main');
    // The other session's box knows nothing of it.
    expect(drafts.get('s2', decisionScope('d1'))).toBeUndefined();

    await user.click(screen.getByTestId('approval-reject'));
    await waitFor(() => expect(fake.resolved).toEqual([{ id: 'd1', choice: 'reject', reason: 'not on main' }]));
    expect(drafts.get('s1', decisionScope('d1'))).toBeUndefined();
  });

  it('forgets the draft of a decision that ended without an answer', async () => {
    const fake = desk();
    await open(fake);
    const user = userEvent.setup();
    await waitFor(() => expect(shownSession()).toBe('s1'));
    act(() => void fake.ask({ id: 'q1', sessionId: 's1', kind: 'question' as const, payload: { question: 'Which?', options: ['a', 'b'] } }));
    await user.type(screen.getByTestId('question-free-text'), 'neither');
    expect(drafts.get('s1', decisionScope('q1'))).toEqual({ selected: [], text: 'neither' });
    act(() => fake.emit('decision.resolved', { id: 'q1', sessionId: 's1', kind: 'question', outcome: 'timed_out', reasonKey: 'decision.reason.timed_out' }));
    await waitFor(() => expect(drafts.get('s1', decisionScope('q1'))).toBeUndefined());
  });

  it('keeps a tool form being filled in when it is left or the page reloads, until the tool ran', async () => {
    const fake = desk();
    const user = userEvent.setup();
    const view = await open(fake);
    await waitFor(() => expect(shownSession()).toBe('s1'));
    const pathBox = async () => within(await screen.findByTestId('fn-field-path')).getByRole('textbox') as HTMLInputElement;
    await user.click(screen.getByTestId('open-fn-form'));
    await user.type(await pathBox(), 'READ');
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('open-fn-form'));
    expect((await pathBox()).value).toBe('READ');

    await reload(fake, view);
    await waitFor(() => expect(shownSession()).toBe('s1'));
    await user.click(screen.getByTestId('open-fn-form'));
    await user.type(await pathBox(), 'ME.md');
    await user.click(screen.getByTestId('fn-form-run'));
    await waitFor(() => expect(screen.getByTestId('composer').dataset.mode).toBe('idle'));
    expect(fake.calls.find((c) => c.method === 'Composer.RunTool')?.req).toEqual({ sessionId: 's1', name: 'read', input: { path: 'README.md' } });
    expect(drafts.get('s1', 'fn-form')).toBeUndefined();
  });
});
