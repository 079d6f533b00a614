import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

describe('Settings: tasks side by side', () => {
  it('shows how many turns run at once and saves when a new task gets its own copy', async () => {
    const backend = new FakeSettingsBackend({ settings: { parallelTurns: 4, worktreeIsolation: 'busy' } });
    const user = userEvent.setup();
    renderSettingsPage(backend);
    const section = await screen.findByTestId('tasks-section');
    expect(section.textContent).toContain('Turns at once');
    const select = screen.getByTestId('worktree-isolation') as HTMLSelectElement;
    expect(select.value).toBe('busy');
    await user.selectOptions(select, 'always');
    await waitFor(() => expect(backend.settings.worktreeIsolation).toBe('always'));
    expect(backend.settings.parallelTurns).toBe(4);
  });

  it('saves the globs copied into a new worktree and the set-up command, and says why a glob is refused', async () => {
    const backend = new FakeSettingsBackend({ settings: { worktreeIsolation: 'busy', worktreeCopy: ['.env'], worktreeSetup: '' } });
    const user = userEvent.setup();
    renderSettingsPage(backend);
    await screen.findByTestId('tasks-section');
    const copy = screen.getByTestId('worktree-copy-input') as HTMLInputElement;
    expect(copy.value).toBe('.env');
    expect(screen.getByTestId('worktree-copy').textContent).toContain('stays sensitive in the copy');
    await user.clear(copy);
    await user.type(copy, '.env, ../outside');
    await user.click(screen.getByTestId('worktree-copy-save'));
    expect((await screen.findByTestId('worktree-copy-error')).textContent).toContain('../outside');
    expect(backend.settings.worktreeCopy).toEqual(['.env']);
    await user.clear(copy);
    await user.type(copy, '.env, config/local.yaml');
    await user.click(screen.getByTestId('worktree-copy-save'));
    await waitFor(() => expect(backend.settings.worktreeCopy).toEqual(['.env', 'config/local.yaml']));
    await user.type(screen.getByTestId('worktree-setup-input'), 'npm ci');
    await user.click(screen.getByTestId('worktree-setup-save'));
    await waitFor(() => expect(backend.settings.worktreeSetup).toBe('npm ci'));
  });
});
