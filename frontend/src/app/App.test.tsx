import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../bridge';
import { BridgeError } from '../bridge/errors';
import { createSettingsApi } from '../bridge/settingsApi';
import { session } from '../test/fakeTransport';
import { App } from './App';
import { preloadViews } from './views';
import { FakeDesk as FakeTransport } from './testing/fakeDesk';

// The views are chunks of their own, loaded once the list is shown: loaded here first, so each
// test waits for what it tests, not for a module's first transform.
beforeAll(() => preloadViews());

function renderApp(fake: FakeTransport) {
  return render(<App api={createApi(() => fake)} settingsApi={createSettingsApi(() => fake)} />);
}

const items = () => screen.queryAllByTestId('session-item');
const titles = () => items().map((li) => within(li).getByTestId('session-title').textContent);

describe('App shell', () => {
  it('with no session, shows the new-task composer; the first message creates the session and sends it', async () => {
    const fake = new FakeTransport();
    renderApp(fake);
    expect((await screen.findByTestId('no-sessions')).textContent).toContain('Start your first session');
    const composer = screen.getByTestId('new-task-composer');
    // No folder is assumed: the field starts empty, and the person names one.
    const folder = screen.getByTestId('new-task-workspace') as HTMLInputElement;
    expect(folder.value).toBe('');
    expect(folder.placeholder).not.toContain('/home/ada');
    await waitFor(() => expect(within(composer).getByTestId('permission-picker').dataset.source).toBe('default'));
    expect(within(composer).getByTestId('permission-label').textContent).toBe('Ask');
    // Its name holds every word it shows (WCAG 2.5.3), so speech input can say what is seen.
    expect(within(composer).getByRole('button', { name: 'Permission: Ask default' })).toBe(within(composer).getByTestId('permission-picker'));

    const user = userEvent.setup();
    await user.type(folder, '/home/ada/project');
    await user.type(within(composer).getByTestId('composer-input'), 'Fix the login bug{Enter}');
    await waitFor(() => expect(titles()).toEqual(['New session']));
    expect(screen.getByTestId('session-heading').textContent).toBe('New session');
    expect(fake.sent).toEqual([{ sessionId: 's1', text: 'Fix the login bug' }]);
    expect(fake.calls.find((c) => c.method === 'Sessions.Create')?.req).toEqual({ workspace: '/home/ada/project', interactionMode: 'smart' });
    expect(window.location.hash).toBe('#/session/s1');
  });

  it('Send with no model set up says what is missing and offers the set-up in the composer, creating nothing', async () => {
    const fake = new FakeTransport();
    fake.providerReady = false;
    renderApp(fake);
    const composer = await screen.findByTestId('new-task-composer');
    const user = userEvent.setup();
    await user.type(within(composer).getByTestId('composer-input'), 'Fix the login bug{Enter}');
    await waitFor(() => expect(composer.dataset.mode).toBe('setup'));
    expect(within(composer).getByTestId('setup-lead').textContent).toContain('No model is set up yet');
    expect(within(composer).getByTestId('onboarding-path-key')).toBeTruthy();
    expect(within(composer).getByTestId('onboarding-path-demo')).toBeTruthy();
    expect(fake.called('Sessions.Create')).toEqual([]);
    expect(fake.sent).toEqual([]);
    // The page's own onboarding steps aside while the composer shows it.
    expect(screen.queryByTestId('onboarding')).toBeNull();

    await user.click(within(composer).getByTestId('setup-back'));
    expect(composer.dataset.mode).toBe('idle');
    expect((within(composer).getByTestId('composer-input') as HTMLTextAreaElement).value).toBe('Fix the login bug');
  });

  it('picks an external agent for a new task next to mode and permission; Chat is not offered for it', async () => {
    const fake = new FakeTransport();
    fake.externalAgents = ['goose acp'];
    fake.providerReady = false; // an external agent needs no model of ours
    renderApp(fake);
    const composer = await screen.findByTestId('new-task-composer');
    const user = userEvent.setup();
    await user.click(within(composer).getByTestId('mode-selector'));
    await user.click(screen.getByTestId('mode-option-chat'));
    expect(within(composer).getByTestId('mode-selector').textContent).toBe('Chat');

    await user.click(within(composer).getByTestId('runtime-picker'));
    await user.click(screen.getByRole('menuitemradio', { name: /goose acp/ }));
    expect(within(composer).getByTestId('runtime-picker').dataset.agent).toBe('goose acp');
    expect(within(composer).getByTestId('mode-selector').textContent).toBe('Smart');
    await user.click(within(composer).getByTestId('mode-selector'));
    expect(screen.queryByTestId('mode-option-chat')).toBeNull();
    await user.keyboard('{Escape}');
    expect(within(composer).getByTestId('model-label').textContent).toBe('goose acp');

    await user.type(screen.getByTestId('new-task-workspace'), '/home/ada/project');
    await user.type(within(composer).getByTestId('composer-input'), 'Tidy the docs{Enter}');
    await waitFor(() => expect(fake.called('Sessions.Create')[0]?.req).toMatchObject({ externalAgent: 'goose acp', interactionMode: 'smart' }));
    await waitFor(() => expect(screen.getByTestId('session-agent').textContent).toBe('Agent: goose acp'));
    await user.click(screen.getByTestId('mode-selector'));
    expect(screen.queryByTestId('mode-option-chat')).toBeNull();
  });

  it('a link to a session beyond the loaded pages opens it; a link to an unknown one shows the newest', async () => {
    const many = Array.from({ length: 8 }, (_, i) => session(`s${i}`, `Task ${i}`, `2025-01-01T0${i}:00:00Z`));
    const fake = new FakeTransport({ sessions: many });
    fake.pageSize = 3;
    window.location.hash = '#/session/s0';
    const { unmount } = renderApp(fake);
    await waitFor(() => expect(screen.getByTestId('session-heading').textContent).toBe('Task 0'));
    expect(window.location.hash).toBe('#/session/s0');
    expect(fake.called('Sessions.Get').map((c) => c.req)).toEqual([{ id: 's0' }]);
    expect(fake.called('Sessions.List')).toHaveLength(1);
    unmount();

    window.location.hash = '#/session/gone';
    renderApp(fake);
    await waitFor(() => expect(window.location.hash).toBe('#/session/s7'));
    await waitFor(() => expect(screen.getByTestId('session-heading').textContent).toBe('Task 7'));
  });

  it('lists sessions newest first and shows the selected one', async () => {
    const fake = new FakeTransport({
      sessions: [session('a', 'Older', '2025-01-01T08:00:00Z'), session('b', 'Newer', '2025-01-01T09:00:00Z')],
    });
    renderApp(fake);
    await waitFor(() => expect(titles()).toEqual(['Newer', 'Older']));
    expect((await screen.findByTestId('session-heading')).textContent).toBe('Newer');
    expect(screen.getByTestId('session-workspace').textContent).toBe('/work/b');

    await userEvent.click(within(items()[1]!).getByTestId('session-select'));
    expect(screen.getByTestId('session-heading').textContent).toBe('Older');
    expect(window.location.hash).toBe('#/session/a');
  });

  it('draws the list first and the session a frame later; the composer takes the focus unless the person put it in the list meanwhile', async () => {
    const fake = new FakeTransport({
      sessions: [session('a', 'Older', '2025-01-01T08:00:00Z'), session('b', 'Newer', '2025-01-01T09:00:00Z')],
    });
    const first = renderApp(fake);
    await waitFor(() => expect(titles()).toEqual(['Newer', 'Older']));
    expect(screen.queryByTestId('composer')).toBeNull();
    const row = within(items()[1]!).getByTestId('session-select');
    row.focus();
    await screen.findByTestId('composer');
    expect(document.activeElement).toBe(row);
    first.unmount();

    renderApp(fake);
    const input = await screen.findByTestId('composer-input');
    expect(document.activeElement).toBe(input);
  });

  it('renames inline: Enter saves, Escape cancels', async () => {
    const fake = new FakeTransport({ sessions: [session('a', 'Draft', '2025-01-01T08:00:00Z')] });
    renderApp(fake);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('rename-session'));
    const input = screen.getByTestId('rename-input');
    expect(document.activeElement).toBe(input);
    await user.clear(input);
    await user.type(input, 'Fix the login bug{Enter}');
    await waitFor(() => expect(titles()).toEqual(['Fix the login bug']));
    expect(fake.calls.filter((c) => c.method === 'Sessions.Rename')).toEqual([
      { method: 'Sessions.Rename', req: { id: 'a', title: 'Fix the login bug' } },
    ]);

    await user.click(screen.getByTestId('rename-session'));
    await user.type(screen.getByTestId('rename-input'), ' and more{Escape}');
    expect(screen.queryByTestId('rename-input')).toBeNull();
    expect(titles()).toEqual(['Fix the login bug']);
    expect(fake.calls.filter((c) => c.method === 'Sessions.Rename')).toHaveLength(1);
  });

  it('supports the keyboard: arrows move between sessions, F2 renames, Delete asks', async () => {
    const fake = new FakeTransport({
      sessions: [session('a', 'First', '2025-01-01T09:00:00Z'), session('b', 'Second', '2025-01-01T08:00:00Z')],
    });
    renderApp(fake);
    const user = userEvent.setup();
    await waitFor(() => expect(titles()).toEqual(['First', 'Second']));
    const [first, second] = items().map((li) => within(li).getByTestId('session-select'));
    first!.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(second);
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(first);

    await user.keyboard('{F2}');
    expect(document.activeElement).toBe(screen.getByTestId('rename-input'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(within(items()[0]!).getByTestId('session-select')));

    await user.keyboard('{Delete}');
    expect(document.activeElement).toBe(screen.getByTestId('cancel-delete'));
  });

  it('deletes only after the inline confirmation', async () => {
    const fake = new FakeTransport({
      sessions: [session('a', 'Keep', '2025-01-01T08:00:00Z'), session('b', 'Remove', '2025-01-01T09:00:00Z')],
    });
    renderApp(fake);
    const user = userEvent.setup();
    await waitFor(() => expect(titles()).toEqual(['Remove', 'Keep']));

    await user.click(within(items()[0]!).getByTestId('delete-session'));
    expect(document.activeElement).toBe(screen.getByTestId('cancel-delete'));
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('confirm-delete')).toBeNull();
    expect(titles()).toEqual(['Remove', 'Keep']);

    await user.click(within(items()[0]!).getByTestId('delete-session'));
    await user.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(titles()).toEqual(['Keep']));
    expect(screen.getByTestId('session-heading').textContent).toBe('Keep');
    // The deleted session's link is not looked up as one beyond the loaded pages.
    expect(fake.called('Sessions.Get')).toEqual([]);
  });

  it('keeps the draft and shows the server message when the first send fails', async () => {
    const fake = new FakeTransport();
    fake.failNext['Composer.Send'] = new BridgeError('PROVIDER_KEY_MISSING', 'No API key for Anthropic.');
    renderApp(fake);
    const user = userEvent.setup();
    const input = await screen.findByTestId('composer-input');
    await user.type(screen.getByTestId('new-task-workspace'), '/home/ada/project');
    await user.type(input, 'Hello{Enter}');
    expect((await screen.findByTestId('composer-error')).textContent).toContain('No API key for Anthropic.');
    expect((screen.getByTestId('composer-input') as HTMLTextAreaElement).value).toBe('Hello');
    expect(fake.sessions).toHaveLength(0);
  });

  it('shows the server message when a session action fails', async () => {
    const fake = new FakeTransport({ sessions: [session('a', 'Keep', '2025-01-01T08:00:00Z')] });
    fake.failNext['Sessions.Fork'] = new BridgeError('STORE_FAILURE', 'The database could not be read or written.');
    renderApp(fake);
    await userEvent.click(await screen.findByTestId('fork-session'));
    expect((await screen.findByTestId('action-error')).textContent).toContain('The database could not be read or written.');
  });

  it('New session opens a new-task composer; fork copies a session and opens it', async () => {
    const fake = new FakeTransport({ sessions: [session('a', 'Parser', '2025-01-01T08:00:00Z')] });
    renderApp(fake);
    const user = userEvent.setup();
    await screen.findByTestId('session-view');
    await user.click(screen.getByTestId('new-session'));
    expect(await screen.findByTestId('new-task-composer')).toBeTruthy();
    expect(window.location.hash).toBe('#/new');
    expect(screen.queryByTestId('no-sessions')).toBeNull();

    await user.click(screen.getByTestId('fork-session'));
    await waitFor(() => expect(titles()).toContain('Parser (fork)'));
    expect(screen.getByTestId('session-heading').textContent).toBe('Parser (fork)');
  });

  it('shows a load error with a retry', async () => {
    const fake = new FakeTransport({ sessions: [session('a', 'Back again', '2025-01-01T08:00:00Z')] });
    fake.failNext['Sessions.List'] = new BridgeError('TRANSPORT', 'Failed to fetch');
    renderApp(fake);
    const error = await screen.findByTestId('sessions-error');
    expect(error.textContent).toContain('AgentDesk could not be reached.');
    await userEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(titles()).toEqual(['Back again']));
  });

  it('follows sessions.changed from another client', async () => {
    const fake = new FakeTransport();
    renderApp(fake);
    await screen.findByTestId('no-sessions');
    act(() => fake.emit('sessions.changed', { sessions: [session('x', 'From elsewhere', '2025-01-02T00:00:00Z')], removed: [] }));
    expect(titles()).toEqual(['From elsewhere']);
    act(() => fake.emit('sessions.changed', { sessions: [session('y', 'Newer', '2025-01-03T00:00:00Z')], removed: [] }));
    expect(titles()).toEqual(['Newer', 'From elsewhere']);
    act(() => fake.emit('sessions.changed', { sessions: [], removed: ['x'] }));
    expect(titles()).toEqual(['Newer']);
  });

  it('loads the list a page at a time as the person scrolls to its end', async () => {
    const fake = new FakeTransport({
      sessions: [1, 2, 3, 4, 5].map((i) => session(`s${i}`, `Session ${i}`, `2025-01-0${i}T00:00:00Z`)),
    });
    fake.pageSize = 2;
    renderApp(fake);
    await waitFor(() => expect(titles()).toEqual(['Session 5', 'Session 4']));
    const lists = () => fake.calls.filter((c) => c.method === 'Sessions.List').length;
    expect(lists()).toBe(1);
    fireEvent.scroll(screen.getByTestId('sessions-scroll'));
    await waitFor(() => expect(titles()).toEqual(['Session 5', 'Session 4', 'Session 3', 'Session 2']));
    fireEvent.scroll(screen.getByTestId('sessions-scroll'));
    await waitFor(() => expect(titles()).toHaveLength(5));
    fireEvent.scroll(screen.getByTestId('sessions-scroll'));
    expect(lists()).toBe(3); // the last page said nothing follows
  });

  it('shows each session live: running, waiting for you, and unread once its turn ends out of view', async () => {
    const fake = new FakeTransport({
      sessions: [session('a', 'Viewed', '2025-01-01T09:00:00Z'), session('b', 'Elsewhere', '2025-01-01T08:00:00Z')],
    });
    renderApp(fake);
    await waitFor(() => expect(titles()).toEqual(['Viewed', 'Elsewhere']));
    const item = (id: string) => screen.getAllByTestId('session-item').find((li) => li.dataset.sessionId === id)!;
    const state = (id: string, running: boolean, waiting: number, stateSeq: number) =>
      act(() => fake.emit('session.state', { sessionId: id, running, waiting, stateSeq }));

    state('b', true, 0, 1);
    expect(within(item('b')).queryByTestId('session-running')).not.toBeNull();
    state('b', true, 1, 2);
    expect(within(item('b')).getByTestId('session-waiting').textContent).toBe('Waiting for you');
    expect(within(item('b')).queryByTestId('session-running')).toBeNull();
    // A stale list (an older seq) does not bring back what a newer state said.
    act(() =>
      fake.emit('sessions.changed', {
        sessions: [session('a', 'Viewed', '2025-01-01T09:00:00Z'), { ...session('b', 'Elsewhere', '2025-01-01T08:00:00Z'), stateSeq: 0 }],
        removed: [],
      }),
    );
    expect(within(item('b')).queryByTestId('session-waiting')).not.toBeNull();
    state('b', false, 0, 3);
    expect(within(item('b')).queryByTestId('session-running')).toBeNull();
    expect(within(item('b')).queryByTestId('session-unread')).not.toBeNull();

    // The session in view never turns unread; opening the other one reads it.
    state('a', true, 0, 4);
    state('a', false, 0, 5);
    expect(within(item('a')).queryByTestId('session-unread')).toBeNull();
    await userEvent.click(within(item('b')).getByTestId('session-select'));
    await waitFor(() => expect(within(item('b')).queryByTestId('session-unread')).toBeNull());
  });

  it('switches language from Settings and follows settings.changed', async () => {
    const fake = new FakeTransport();
    renderApp(fake);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('nav-settings'));
    const select = screen.getByTestId('language-select');
    await user.selectOptions(select, 'zh-CN');
    await waitFor(() => expect(screen.getByTestId('nav-settings').textContent).toBe('设置'));
    expect(fake.language).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(screen.getByTestId('new-session').textContent).toBe('新建会话');

    act(() => fake.emit('settings.changed', { language: 'en' }));
    expect(screen.getByTestId('nav-settings').textContent).toBe('Settings');
    expect((screen.getByTestId('language-select') as HTMLSelectElement).value).toBe('en');
  });

  it('starts in the stored language', async () => {
    renderApp(new FakeTransport({ language: 'zh-CN' }));
    expect((await screen.findByTestId('no-sessions')).textContent).toContain('开始你的第一个会话');
    expect((screen.getByTestId('composer-send') as HTMLButtonElement).textContent).toBe('发送');
    await waitFor(() => expect(screen.getByTestId('permission-label').textContent).toBe('询问'));
  });
});
