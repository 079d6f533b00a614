import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createApi, type Transcript as TranscriptData } from '../../bridge';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { I18nProvider } from '../../i18n/I18nProvider';
import { Transcript } from '../transcript/Transcript';
import { normalizeTranscript } from '../transcript/transcriptReducer';
import { IsolationChoice } from './IsolationChoice';
import { SetupRunning } from './SetupRunning';

function page(lang: 'en' | 'zh-CN', items: unknown[]) {
  const transcript: TranscriptData = normalizeTranscript({ sessionId: 's1', items: items as never, turns: [] });
  return render(
    <I18nProvider lang={lang}>
      <Transcript transcript={transcript} onStop={() => {}} onContinue={() => {}} />
    </I18nProvider>,
  );
}

const copied = {
  type: 'worktreeCopied',
  turnId: '',
  seq: 1,
  worktreeCopied: { files: ['.env', 'config/local.yaml'], skipped: [{ path: 'id_rsa', reason: 'sensitive' }], leftOver: 2, maxFiles: 1000 },
};
const failed = {
  type: 'worktreeSetup',
  turnId: '',
  seq: 2,
  worktreeSetup: { command: 'npm ci', source: 'repository', exitCode: 1, output: 'npm ERR! missing lockfile', durationMs: 1500, timedOut: false, cancelled: false, failed: true },
};

describe("a new task's worktree preparation in the transcript", () => {
  it('lists the files copied and says why each skipped one was not', () => {
    page('en', [copied]);
    const marker = screen.getByTestId('worktree-copied');
    expect(marker.textContent).toContain("2 file(s) copied into this task's worktree");
    expect(marker.textContent).toContain('.env, config/local.yaml');
    expect(screen.getByTestId('worktree-copy-skipped').textContent).toContain('on the sensitive list and not named by an entry of yours: id_rsa');
    expect(screen.getByTestId('worktree-copy-left-over').textContent).toContain('at most 1000 files');
  });

  it("shows a failed set-up's command, where it came from, its exit code and its output, and says the worktree is kept", async () => {
    page('en', [failed]);
    const marker = screen.getByTestId('worktree-setup');
    expect(marker.dataset.failed).toBe('true');
    expect(screen.getByTestId('worktree-setup-command').textContent).toBe('npm ci');
    expect(marker.textContent).toContain("the repository's, ticked for this task");
    expect(screen.getByTestId('worktree-setup-outcome').textContent).toContain('exit code 1 after 1.5 s. The worktree is kept');
    expect(screen.getByTestId('worktree-setup-output').textContent).toContain('npm ERR!');
    await userEvent.setup().click(screen.getByTestId('worktree-setup-toggle'));
    expect(screen.queryByTestId('worktree-setup-output')).toBeNull();
  });

  it('speaks Chinese too, and a set-up that could not run says why', () => {
    page('zh-CN', [{ ...failed, worktreeSetup: { ...failed.worktreeSetup, error: 'WORKTREE_SETUP_CHANGED', output: '' } }]);
    expect(screen.getByTestId('worktree-setup-outcome').textContent).toContain('仓库的准备命令未运行');
  });
});

describe("the repository's set-up in the isolation choice", () => {
  it('shows the command it would run, unticked, and only for an isolated task', async () => {
    const onRun = vi.fn();
    const props = { carry: false, repoSetup: 'npm ci', runRepoSetup: false, onIsolated: () => {}, onCarry: () => {}, onRunRepoSetup: onRun };
    const { rerender } = render(
      <I18nProvider lang="en">
        <IsolationChoice isolated={false} {...props} />
      </I18nProvider>,
    );
    expect(screen.queryByTestId('run-repo-setup')).toBeNull();
    rerender(
      <I18nProvider lang="en">
        <IsolationChoice isolated {...props} />
      </I18nProvider>,
    );
    const box = screen.getByTestId('run-repo-setup') as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByTestId('repo-setup-command').textContent).toBe('npm ci');
    await userEvent.setup().click(box);
    expect(onRun).toHaveBeenCalledWith(true);
  });
});

describe('a set-up running in the new worktree', () => {
  it('is said with its command until it ends', async () => {
    const fake = new FakeDesk();
    const api = createApi(() => fake);
    render(
      <I18nProvider lang="en">
        <SetupRunning api={api} sessionId="s1" />
      </I18nProvider>,
    );
    expect(screen.queryByTestId('setup-running')).toBeNull();
    const setup = { command: 'npm ci', source: 'settings', exitCode: 0, output: '', durationMs: 0, timedOut: false, cancelled: false, failed: false };
    act(() => fake.emit('worktree.setup.started', { sessionId: 's2', setup }));
    expect(screen.queryByTestId('setup-running')).toBeNull();
    act(() => fake.emit('worktree.setup.started', { sessionId: 's1', setup }));
    expect((await screen.findByTestId('setup-running')).textContent).toContain('npm ci');
    act(() => fake.emit('worktree.setup.done', { sessionId: 's1', setup: { ...setup, durationMs: 900 } }));
    expect(screen.queryByTestId('setup-running')).toBeNull();
  });
});
