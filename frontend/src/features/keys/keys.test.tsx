import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../app/App';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { preloadViews } from '../../app/views';
import { createApi } from '../../bridge';
import { createSettingsApi } from '../../bridge/settingsApi';
import { catalog } from '../../i18n/locales';
import { makeT } from '../../i18n/translate';
import { session } from '../../test/fakeTransport';
import { bindingFor, chordKeys, KEYMAP } from './keymap';
import { markModeCycleUsed, modeCycleOn, setModeCycle } from './modeCycle';

beforeAll(() => preloadViews());

const key = (k: string, mods: { ctrl?: boolean; shift?: boolean; alt?: boolean; meta?: boolean } = {}) => ({
  key: k,
  ctrlKey: !!mods.ctrl,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
  metaKey: !!mods.meta,
});

describe('the keymap', () => {
  it('maps each chord to one action, and a plain key never fires in a text field', () => {
    expect(bindingFor(key('Enter', { ctrl: true }), true, false)?.action).toBe('approve');
    expect(bindingFor(key('Enter', { ctrl: true, shift: true }), true, false)?.action).toBe('allowSession');
    expect(bindingFor(key('Backspace', { ctrl: true, shift: true }), true, false)?.action).toBe('reject');
    expect(bindingFor(key('N', { ctrl: true }), false, false)?.action).toBe('newSession');
    expect(bindingFor(key(',', { ctrl: true }), true, false)?.action).toBe('settings');
    expect(bindingFor(key('k', { ctrl: true }), true, false)?.action).toBe('focusComposer');
    expect(bindingFor(key('ArrowDown', { alt: true }), true, false)?.action).toBe('nextDecision');
    expect(bindingFor(key('ArrowUp', { alt: true }), true, false)?.action).toBe('previousDecision');
    expect(bindingFor(key('End', { alt: true }), true, false)?.action).toBe('jumpLatest');
    expect(bindingFor(key('?', { shift: true }), false, false)?.action).toBe('shortcuts');
    expect(bindingFor(key('?', { shift: true }), true, false)).toBeNull();
    expect(bindingFor(key('Enter'), false, false)).toBeNull();
    // ⌘ on macOS, and Ctrl there is not the modifier.
    expect(bindingFor(key('n', { meta: true }), false, true)?.action).toBe('newSession');
    expect(bindingFor(key('n', { ctrl: true }), false, true)).toBeNull();
    expect(new Set(KEYMAP.map((b) => b.action)).size).toBe(KEYMAP.length);
  });

  it('names every key and action in both languages', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      const t = makeT(catalog, lang);
      for (const b of KEYMAP) {
        expect(t(`shell.keys.action.${b.action}`)).not.toBe(`shell.keys.action.${b.action}`);
        for (const k of chordKeys(b.chord, t, false)) expect(k).not.toMatch(/^shell\./);
      }
    }
    expect(chordKeys(KEYMAP[1]!.chord, makeT(catalog, 'en'), false)).toEqual(['Ctrl', 'Shift', 'Enter']);
  });

  it('lets Shift+Tab cycle modes once turned on, or once the selector was used, unless turned off', () => {
    expect(modeCycleOn()).toBe(false);
    markModeCycleUsed();
    expect(modeCycleOn()).toBe(true);
    setModeCycle(false);
    markModeCycleUsed();
    expect(modeCycleOn()).toBe(false);
  });
});

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
const approval = (id: string) => ({
  id,
  sessionId: 's1',
  kind: 'approval' as const,
  payload: { tool: 'bash', kind: 'bash', summary: 'rm -rf build', command: 'rm -rf build', scopes: [{ id: 'exact', command: 'rm -rf build' }] },
});

describe('the keyboard in the composer', () => {
  it('a decision takes the focus from the message box; Ctrl+Shift+Backspace focuses the reason; Enter rejects', async () => {
    const { fake, user } = await openSession();
    await user.click(screen.getByTestId('composer-input'));
    act(() => void fake.ask(approval('d1')));
    expect(mode()).toBe('approval');
    expect(screen.getByTestId('composer-mode-approval')).toBe(document.activeElement);
    await user.keyboard('{Control>}{Shift>}{Backspace}{/Shift}{/Control}');
    expect(screen.getByTestId('approval-reason')).toBe(document.activeElement);
    await user.keyboard('Not now{Enter}');
    await waitFor(() => expect(mode()).toBe('idle'));
    expect(fake.resolved).toEqual([{ id: 'd1', choice: 'reject', reason: 'Not now' }]);
    // Answered, the focus is back in the message box.
    await waitFor(() => expect(screen.getByTestId('composer-input')).toBe(document.activeElement));
  });

  it('a decision arriving while the focus is elsewhere leaves it there and is announced', async () => {
    const { fake } = await openSession();
    const before = screen.getByTestId('nav-settings');
    act(() => before.focus());
    act(() => void fake.ask(approval('d1')));
    expect(mode()).toBe('approval');
    expect(document.activeElement).toBe(before);
    expect(screen.getByTestId('composer-announce').textContent).toBe('Waiting for your decision: Run command');
  });

  it('Ctrl+Enter approves, Ctrl+Shift+Enter allows for this session; in the idle box Ctrl+Enter still sends', async () => {
    const { fake, user } = await openSession();
    act(() => void fake.ask(approval('d1')));
    expect(screen.getByTestId('approval-allow-once').getAttribute('aria-keyshortcuts')).toBe('Control+Enter');
    expect(screen.getByTestId('approval-allow-session').getAttribute('aria-keyshortcuts')).toBe('Control+Shift+Enter');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(mode()).toBe('idle'));
    act(() => void fake.ask(approval('d2')));
    await user.keyboard('{Control>}{Shift>}{Enter}{/Shift}{/Control}');
    await waitFor(() => expect(mode()).toBe('idle'));
    expect(fake.resolved).toEqual([
      { id: 'd1', choice: 'allow_once' },
      { id: 'd2', choice: 'allow_session' },
    ]);
    await user.click(screen.getByTestId('composer-input'));
    await user.keyboard('Carry on{Control>}{Enter}{/Control}');
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'Composer.Send')).toBe(true));
  });

  it('Esc inside a decision leaves it without stopping the turn; Ctrl+K comes back', async () => {
    const { fake, user } = await openSession((f) => (f.transcriptOf('s1').running = 't1'));
    await user.click(screen.getByTestId('composer-input'));
    act(() => void fake.ask(approval('d1')));
    await user.keyboard('{Escape}');
    expect(document.activeElement?.id).toBe('main');
    expect(mode()).toBe('approval');
    expect(fake.calls.some((c) => c.method === 'Composer.Cancel')).toBe(false);
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.getByTestId('composer-mode-approval')).toBe(document.activeElement);
  });

  it('Esc while a turn runs asks before stopping it', async () => {
    const { fake, user } = await openSession((f) => (f.transcriptOf('s1').running = 't1'));
    await user.click(screen.getByTestId('composer-input'));
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('composer-stop-confirm')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'Composer.Cancel')).toBe(false);
    // Esc again keeps it running.
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('composer-stop-confirm')).toBeNull();
    expect(screen.getByTestId('composer-input')).toBe(document.activeElement);
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('composer-stop-yes')).toBe(document.activeElement);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'Composer.Cancel')).toBe(true));
  });

  it("the transcript's Stop asks in the composer before stopping the turn", async () => {
    const { fake, user } = await openSession((f) => {
      const tr = f.transcriptOf('s1');
      tr.running = 't1';
      tr.turns = [{ id: 't1', prompt: 'Go', executionMode: 'execute', reasonKey: '', status: 'running', error: '', temporary: false, createdAt: '2025-01-01T10:00:00Z' }] as never;
      tr.items = [{ type: 'user', turnId: 't1', text: 'Go', steer: false, seq: 10 }] as never;
    });
    await user.click(await screen.findByTestId('turn-stop'));
    expect(screen.getByTestId('composer-stop-confirm')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'Composer.Cancel')).toBe(false);
    await user.click(screen.getByTestId('composer-stop-yes'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'Composer.Cancel')).toBe(true));
  });

  it('Shift+Tab in the empty box moves the focus back until the mode cycling is on', async () => {
    const { fake, user } = await openSession();
    await user.click(screen.getByTestId('composer-input'));
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(screen.getByTestId('composer-input')).not.toBe(document.activeElement);
    expect(fake.calls.some((c) => c.method === 'Sessions.Configure')).toBe(false);
    setModeCycle(true);
    await user.click(screen.getByTestId('composer-input'));
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'Sessions.Configure')).toBe(true));
  });

  it('Ctrl+Comma opens Settings with the keyboard map; Ctrl+N starts a new task', async () => {
    const { user } = await openSession();
    await user.keyboard('{Control>},{/Control}');
    await screen.findByTestId('settings-page');
    expect((await screen.findByTestId('settings-keymap')).querySelectorAll('[data-testid="keymap-row"]')).toHaveLength(KEYMAP.length);
    await user.keyboard('{Control>}n{/Control}');
    await screen.findByTestId('new-task-composer');
  });

  it('Alt+↓ opens the next session with a decision waiting and puts the focus on it', async () => {
    const fake = new FakeDesk({
      sessions: [
        { ...session('s1', 'Work', '2025-01-02T08:00:00Z'), permissionMode: 'ask' },
        { ...session('s2', 'Quiet', '2025-01-01T09:00:00Z'), permissionMode: 'ask' },
        { ...session('s3', 'Asks', '2025-01-01T08:00:00Z'), permissionMode: 'ask', waiting: 1 },
      ],
    });
    fake.transcriptOf('s3').pending.push({ ...approval('d3'), sessionId: 's3', turnId: 't1', createdAt: '2025-01-01T10:00:00Z', deadline: '' });
    render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
    await screen.findByTestId('composer');
    const user = userEvent.setup();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(() => expect(document.querySelector('[data-testid="session-view"]')?.getAttribute('data-session-id')).toBe('s3'));
    await waitFor(() => expect(screen.getByTestId('composer-mode-approval')).toBe(document.activeElement));
  });

  it('Alt+End presses the transcript\'s jump to the latest message, even from the message box', async () => {
    const { user } = await openSession();
    const jump = document.createElement('button');
    jump.dataset.testid = 'jump-latest';
    let pressed = 0;
    jump.addEventListener('click', () => pressed++);
    document.body.append(jump);
    await user.click(screen.getByTestId('composer-input'));
    await user.keyboard('{Alt>}{End}{/Alt}');
    expect(pressed).toBe(1);
    jump.remove();
  });
});
