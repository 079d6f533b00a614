import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../bridge';
import type { TaskChanges } from '../../bridge/generated';
import { I18nProvider } from '../../i18n/I18nProvider';
import { conflictStore } from './conflicts';
import { TaskChangesView } from './TaskChangesView';

const line = (kind: string, text: string, old?: number, now?: number) => ({ kind, text, old, new: now });
const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';

/** Two hunks in list.txt (the first still pending, the second a conflict), and a created file. */
function changes(first: string): TaskChanges {
  return {
    files: [
      {
        path: 'list.txt',
        action: 'modify',
        before,
        after: 'A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n',
        hunks: [
          { oldStart: 1, oldLines: 4, newStart: 1, newLines: 4, lines: [line('del', 'a\n', 1), line('add', 'A\n', undefined, 1), line('ctx', 'b\n', 2, 2), line('ctx', 'c\n', 3, 3), line('ctx', 'd\n', 4, 4)] },
          { oldStart: 7, oldLines: 4, newStart: 7, newLines: 4, lines: [line('ctx', 'g\n', 7, 7), line('ctx', 'h\n', 8, 8), line('ctx', 'i\n', 9, 9), line('del', 'j\n', 10), line('add', 'J\n', undefined, 10)] },
        ],
        state: 'conflict',
        hunkStates: [first, 'conflict'],
      },
      { path: 'new.txt', action: 'create', before: '', after: 'new\n', hunks: [], state: 'pending', hunkStates: [] },
    ],
  };
}

function fakeApi() {
  const calls: string[] = [];
  let first = 'pending';
  const sessions = {
    reviewWorktree: async () => changes(first),
    applyWorktreeFile: async (_id: string, path: string, hunks: number[]) => {
      calls.push(`apply ${path} ${hunks.join(',')}`);
      if (path === 'list.txt') first = 'applied';
      return {};
    },
    discardWorktreeFile: async (_id: string, path: string, hunks: number[], reason: string) => {
      calls.push(`discard ${path} ${hunks.join(',')} "${reason}"`);
      return changes(first);
    },
  };
  return { api: { sessions } as unknown as Api, calls };
}

describe("a task's changes", () => {
  it('applies a hunk, never offers a conflict for applying, discards from the task and puts conflicts in the composer', async () => {
    const { api, calls } = fakeApi();
    const user = userEvent.setup();
    render(
      <I18nProvider lang="en">
        <TaskChangesView api={api} sessionId="s9" onClose={() => undefined} />
      </I18nProvider>,
    );
    const list = await screen.findByText('list.txt');
    const file = list.closest('[data-testid="task-file"]') as HTMLElement;
    const states = () => within(file).getAllByTestId('task-hunk-state').map((b) => b.getAttribute('data-state'));
    await waitFor(() => expect(states()).toEqual(['pending', 'conflict']));
    expect(within(file).getAllByTestId('task-hunk-apply')).toHaveLength(1);
    expect(conflictStore.get()['s9']).toEqual([{ path: 'list.txt', hunks: [2] }]);

    await user.click(screen.getByRole('button', { name: 'Apply to my folder: hunk 1 of list.txt' }));
    await waitFor(() => expect(states()).toEqual(['applied', 'conflict']));
    await user.type(within(file).getByTestId('task-file-reason'), 'keep J lowercase');
    await user.click(screen.getByRole('button', { name: 'Discard from the task: hunk 2 of list.txt' }));
    await waitFor(() => expect((within(file).getByTestId('task-file-reason') as HTMLInputElement).value).toBe(''));
    const created = document.querySelector('[data-testid="task-file"][data-path="new.txt"]') as HTMLElement;
    await user.click(within(created).getByTestId('task-file-apply'));
    expect(calls).toEqual(['apply list.txt 0', 'discard list.txt 1 "keep J lowercase"', 'apply new.txt ']);
  });

  it('speaks Chinese', async () => {
    const { api } = fakeApi();
    render(
      <I18nProvider lang="zh-CN">
        <TaskChangesView api={api} sessionId="s8" onClose={() => undefined} />
      </I18nProvider>,
    );
    expect((await screen.findAllByTestId('task-hunk-apply'))[0]!.textContent).toBe('应用到我的文件夹');
  });
});
