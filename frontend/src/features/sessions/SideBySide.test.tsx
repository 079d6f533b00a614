import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Api, Session } from '../../bridge';
import type { WorktreeChanged, WorktreeRepo, WorktreeTask } from '../../bridge/generated';
import { I18nProvider } from '../../i18n/I18nProvider';
import { SideBySide } from './SideBySide';

const task = (id: string, title: string, more: Partial<WorktreeTask> = {}): WorktreeTask => ({
  id,
  title,
  branch: `agentdesk/${id}/${title.toLowerCase().replace(/ /g, '-')}`,
  unapplied: 0,
  running: false,
  waiting: 0,
  stateSeq: 0,
  updatedAt: '2025-01-01T10:00:00Z',
  ...more,
});

const session = (id: string, more: Partial<Session> = {}): Session => ({
  id,
  title: id,
  workspace: '/w',
  interactionMode: 'smart',
  executionOverride: '',
  permissionMode: 'ask',
  running: false,
  waiting: 0,
  stateSeq: 0,
  createdAt: '2025-01-01T10:00:00Z',
  updatedAt: '2025-01-01T10:00:00Z',
  ...more,
});

/** The two calls the section makes, answering `answers` in turn (the last one from then on). */
function fakeApi(...answers: WorktreeRepo[][]) {
  let changed: ((e: WorktreeChanged) => void) | null = null;
  const list = vi.fn(async () => (answers.length > 1 ? answers.shift()! : answers[0]!));
  const sessions = {
    listWorktreeTasks: list,
    onWorktreeChanged: (cb: (e: WorktreeChanged) => void) => {
      changed = cb;
      return () => {
        changed = null;
      };
    },
  };
  return { api: { sessions } as unknown as Api, list, emit: (e: WorktreeChanged) => changed?.(e) };
}

function Section({ api, sessions = [], onSelect = () => {} }: { api: Api; sessions?: Session[]; onSelect?: (id: string) => void }) {
  return (
    <I18nProvider lang="en">
      <SideBySide api={api} sessions={sessions} selectedId="a1" onSelect={onSelect} />
    </I18nProvider>
  );
}

const twoRepos: WorktreeRepo[] = [
  { repo: '/home/ada/api', tasks: [task('a1', 'Fix login', { unapplied: 2, running: true, stateSeq: 3 }), task('a2', 'Docs', { unapplied: 1 })] },
  { repo: '/home/ada/web/', tasks: [task('w1', 'Dark mode', { waiting: 1, stateSeq: 5 })] },
];

describe('the side-by-side section', () => {
  it('shows nothing while no task runs in a worktree of its own', async () => {
    const { api, list } = fakeApi([]);
    const { container } = render(<Section api={api} />);
    await act(async () => {});
    expect(list).toHaveBeenCalledTimes(1);
    expect(container.textContent).toBe('');
  });

  it('lists the tasks under their repositories, each with its branch, state and files not applied', async () => {
    const { api } = fakeApi(twoRepos);
    render(<Section api={api} />);
    const region = await screen.findByRole('region', { name: 'Side by side' });
    const api_ = within(region).getByRole('list', { name: 'api' });
    expect(within(region).getByRole('heading', { name: 'api', level: 3 }).getAttribute('title')).toBe('/home/ada/api');
    expect(within(region).getByRole('heading', { name: 'web', level: 3 }).getAttribute('title')).toBe('/home/ada/web/');

    const [fix, docs] = within(api_).getAllByRole('button');
    expect(fix!.textContent).toContain('Fix login');
    const branch = within(fix!).getByText('fix-login');
    expect(branch.getAttribute('title')).toBe('agentdesk/a1/fix-login');
    expect(branch.className).toContain('mono');
    expect(within(fix!).getByTestId('side-by-side-state').textContent).toBe('Running');
    expect(within(fix!).getByTestId('side-by-side-unapplied').textContent).toBe('2 files not applied');
    expect(fix!.getAttribute('aria-current')).toBe('page');
    expect(within(docs!).getByTestId('side-by-side-state').textContent).toBe('Idle');
    expect(within(docs!).getByTestId('side-by-side-unapplied').textContent).toBe('1 file not applied');

    const [mode] = within(within(region).getByRole('list', { name: 'web' })).getAllByRole('button');
    expect(within(mode!).getByTestId('side-by-side-state').textContent).toBe('Waiting for you');
    expect(within(mode!).queryByTestId('side-by-side-unapplied')).toBeNull();
  });

  it('takes a state from the session list when it is newer than the row', async () => {
    const { api } = fakeApi(twoRepos);
    render(<Section api={api} sessions={[session('a1', { running: false, stateSeq: 9 }), session('w1', { waiting: 0, stateSeq: 1 })]} />);
    const region = await screen.findByRole('region', { name: 'Side by side' });
    const states = within(region).getAllByTestId('side-by-side-state').map((s) => s.textContent);
    // a1: the list's newer idle wins over the row's running; w1: the row's waiting is newer.
    expect(states).toEqual(['Idle', 'Idle', 'Waiting for you']);
  });

  it('opens a task on a click and on Enter', async () => {
    const { api } = fakeApi(twoRepos);
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<Section api={api} onSelect={onSelect} />);
    await screen.findByRole('region', { name: 'Side by side' });
    await user.click(screen.getByRole('button', { name: /Docs/ }));
    expect(onSelect).toHaveBeenLastCalledWith('a2');
    screen.getByRole('button', { name: /Dark mode/ }).focus();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('w1');
  });

  it('reads the tasks again when a worktree changes and when the session list does', async () => {
    const applied: WorktreeRepo[] = [{ repo: '/home/ada/api', tasks: [task('a1', 'Fix login')] }];
    const { api, list, emit } = fakeApi(twoRepos, applied, []);
    const { rerender } = render(<Section api={api} />);
    expect(await screen.findByText('2 files not applied')).toBeTruthy();

    await act(async () => emit({ sessionId: 'a1', unapplied: 0, removed: false }));
    expect(list).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('2 files not applied')).toBeNull();
    expect(screen.queryByRole('list', { name: 'web' })).toBeNull();

    rerender(<Section api={api} sessions={[session('a1', { updatedAt: '2025-01-01T11:00:00Z' })]} />);
    await act(async () => {});
    expect(list).toHaveBeenCalledTimes(3);
    expect(screen.queryByRole('region', { name: 'Side by side' })).toBeNull();
  });
});
