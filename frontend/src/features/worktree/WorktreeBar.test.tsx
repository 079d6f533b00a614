import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../bridge';
import type { WorktreeView } from '../../bridge/generated';
import { I18nProvider } from '../../i18n/I18nProvider';
import { ConflictNotice } from './ConflictNotice';
import { WorktreeBar } from './WorktreeBar';

const active: WorktreeView = { isolated: true, repo: '/home/ada/app', branch: 'agentdesk/1a2b3c4d/fix-login', base: 'abc1234', kept: [] };

function fakeApi(view: WorktreeView) {
  let current = view;
  const calls: string[] = [];
  const sessions = {
    worktree: async () => current,
    applyWorktree: async () => {
      calls.push('apply');
      return { written: ['app.go'], same: [], conflicts: ['notes.txt'] };
    },
    reviewWorktree: async () => ({
      files: [
        { path: 'app.go', action: 'modify', before: '', after: '', hunks: [], state: 'applied', hunkStates: ['applied'] },
        { path: 'notes.txt', action: 'modify', before: '', after: '', hunks: [], state: 'conflict', hunkStates: ['pending', 'conflict'] },
      ],
    }),
    mergeWorktree: async (_id: string, squash: boolean) => {
      calls.push(`merge:${squash}`);
      return current;
    },
    removeWorktree: async () => {
      calls.push('remove');
      current = { ...current, removed: true, kept: ['app.go', 'wip.txt'] };
      return current;
    },
    handOff: async () => {
      calls.push('handoff');
      current = { isolated: false, kept: [] };
      return {};
    },
    restoreWorktree: async () => {
      calls.push('restore');
      current = { ...current, removed: false, gone: false, kept: [] };
      return current;
    },
  };
  return { api: { sessions } as unknown as Api, calls };
}

describe('the worktree bar', () => {
  it('shows nothing for a session in the person folder', async () => {
    const { api } = fakeApi({ isolated: false, kept: [] });
    const { container } = render(
      <I18nProvider lang="en">
        <WorktreeBar api={api} sessionId="s1" />
      </I18nProvider>,
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(container.textContent).toBe('');
  });

  it('applies with conflicts named in the composer, merges as one commit, removes keeping the work and restores it', async () => {
    const { api, calls } = fakeApi(active);
    const user = userEvent.setup();
    const reviews: string[] = [];
    render(
      <I18nProvider lang="en">
        <WorktreeBar api={api} sessionId="s1" onReview={() => reviews.push('bar')} />
        <ConflictNotice sessionId="s1" onReview={() => reviews.push('notice')} />
      </I18nProvider>,
    );
    expect((await screen.findByTestId('worktree-branch')).textContent).toBe('agentdesk/1a2b3c4d/fix-login');
    expect(screen.getByTestId('worktree-bar').textContent).toContain('from abc1234');
    await user.click(screen.getByTestId('worktree-apply'));
    expect((await screen.findByTestId('worktree-conflicts')).textContent).toContain('1 file(s) left as you have them');
    expect(screen.getByTestId('worktree-result').textContent).toContain('1 file(s) written');
    expect((await screen.findByTestId('conflict-notice')).textContent).toContain('notes.txt (hunk 2)');
    await user.click(screen.getByTestId('conflict-review'));
    await user.click(screen.getByTestId('worktree-review'));
    expect(reviews).toEqual(['notice', 'bar']);
    await user.click(screen.getByTestId('conflict-dismiss'));
    expect(screen.queryByTestId('conflict-notice')).toBeNull();
    await user.click(screen.getByTestId('worktree-merge'));
    await waitFor(() => expect(screen.getByTestId('worktree-result').textContent).toContain('Merged into your current branch'));
    await user.click(screen.getByTestId('worktree-remove'));
    expect((await screen.findByTestId('worktree-removed')).textContent).toContain('app.go, wip.txt');
    await user.click(screen.getByTestId('worktree-restore'));
    await waitFor(() => expect(screen.getByTestId('worktree-bar').getAttribute('data-removed')).toBe('false'));
    expect(calls).toEqual(['apply', 'merge:true', 'remove', 'restore']);
  });

  it('moves the task into the person folder, after which the bar is gone', async () => {
    const { api, calls } = fakeApi(active);
    const user = userEvent.setup();
    render(
      <I18nProvider lang="en">
        <WorktreeBar api={api} sessionId="s1" />
      </I18nProvider>,
    );
    await user.click(await screen.findByTestId('worktree-handoff'));
    await waitFor(() => expect(screen.queryByTestId('worktree-bar')).toBeNull());
    expect(calls).toEqual(['handoff']);
  });

  it('speaks Chinese', async () => {
    const { api } = fakeApi(active);
    render(
      <I18nProvider lang="zh-CN">
        <WorktreeBar api={api} sessionId="s1" />
      </I18nProvider>,
    );
    expect((await screen.findByTestId('worktree-apply')).textContent).toBe('应用到我的文件夹');
  });
});

describe('a copy removed outside AgentDesk', () => {
  it('says so, keeps the actions on work that is not there away, and checks the branch out again', async () => {
    const { api, calls } = fakeApi({ ...active, gone: true });
    const user = userEvent.setup();
    render(
      <I18nProvider lang="en">
        <WorktreeBar api={api} sessionId="s1" />
      </I18nProvider>,
    );
    expect((await screen.findByTestId('worktree-gone')).textContent).toContain('commits are safe on branch agentdesk/1a2b3c4d/fix-login');
    expect(screen.queryByTestId('worktree-apply')).toBeNull();
    await user.click(screen.getByTestId('worktree-restore'));
    expect(calls).toEqual(['restore']);
  });
});
