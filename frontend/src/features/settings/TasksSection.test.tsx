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
});
