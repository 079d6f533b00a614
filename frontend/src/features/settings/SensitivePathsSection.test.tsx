import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

const entries = () => screen.queryAllByTestId('sensitive-entry').map((e) => e.dataset.path);

describe('Settings: sensitive paths', () => {
  it('lists the entries, removes one, adds one and resets to the defaults', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    await screen.findByTestId('sensitive-section');
    expect(entries()).toEqual(['.ssh/', '.env']);
    expect((screen.getByTestId('sensitive-reset') as HTMLButtonElement).disabled).toBe(true);

    const env = screen.getAllByTestId('sensitive-entry')[1] as HTMLElement;
    await user.click(within(env).getByTestId('sensitive-remove'));
    await waitFor(() => expect(entries()).toEqual(['.ssh/']));
    expect(backend.settings.sensitivePaths).toEqual(['.ssh/']);

    await user.type(screen.getByTestId('sensitive-input'), 'secrets/');
    await user.click(screen.getByTestId('sensitive-add-button'));
    await waitFor(() => expect(entries()).toEqual(['.ssh/', 'secrets/']));
    expect((screen.getByTestId('sensitive-input') as HTMLInputElement).value).toBe('');

    await user.click(screen.getByTestId('sensitive-reset'));
    await waitFor(() => expect(entries()).toEqual(['.ssh/', '.env']));
  });

  it('shows the server refusing an entry, and says when nothing is sensitive', async () => {
    const backend = new FakeSettingsBackend({ settings: { sensitivePaths: [] } });
    renderSettingsPage(backend, 'zh-CN');
    const user = userEvent.setup();
    expect((await screen.findByTestId('sensitive-empty')).textContent).toContain('没有敏感路径');
    await user.type(screen.getByTestId('sensitive-input'), '[[');
    await user.click(screen.getByTestId('sensitive-add-button'));
    expect((await screen.findByTestId('sensitive-error')).textContent).not.toBe('');
    expect(backend.settings.sensitivePaths).toEqual([]);
  });
});
